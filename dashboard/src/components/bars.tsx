/** A horizontal bar chart in SVG, with the figures as text too (a screen reader reads the table under it). */
export function Bars (props: { title: string, data: Array<[string, number]> }) {
  const max = Math.max(1, ...props.data.map(([, v]) => v))
  const row = 28
  return (
    <figure class='chart'>
      <svg role='img' aria-label={props.title} width='480' height={props.data.length * row + 8} viewBox={`0 0 480 ${props.data.length * row + 8}`}>
        {props.data.map(([label, value], i) => (
          <g key={label} transform={`translate(0 ${i * row + 4})`}>
            <text x='0' y='17' font-size='13' fill='#1a1a1a'>{label}</text>
            <rect x='120' y='4' height='18' width={Math.max(1, (value / max) * 300)} fill='#0b57d0' />
            <text x={128 + (value / max) * 300} y='17' font-size='13' fill='#1a1a1a'>{value}</text>
          </g>
        ))}
      </svg>
      <figcaption>{props.title}</figcaption>
      <table class='visually-hidden'><caption>{props.title}</caption><tbody>{props.data.map(([l, v]) => <tr key={l}><th scope='row'>{l}</th><td>{v}</td></tr>)}</tbody></table>
    </figure>
  )
}
