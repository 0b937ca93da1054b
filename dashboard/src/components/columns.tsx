/** Stacked columns in SVG (one per entry, one colour per series), with a hidden table of the same figures. */
export function Columns (props: { title: string, labels: string[], series: Array<{ name: string, colour: string, values: number[] }> }) {
  const width = 640
  const height = 160
  const totals = props.labels.map((_, i) => props.series.reduce((n, s) => n + (s.values[i] ?? 0), 0))
  const max = Math.max(1, ...totals)
  const step = width / Math.max(1, props.labels.length)
  return (
    <figure class='chart'>
      <svg role='img' aria-label={props.title} width={width} height={height + 20} viewBox={`0 0 ${width} ${height + 20}`}>
        {props.labels.map((label, i) => {
          let y = height
          return (
            <g key={label}>
              {props.series.map(s => {
                const h = ((s.values[i] ?? 0) / max) * height
                y -= h
                return h > 0 ? <rect key={s.name} x={i * step + 1} y={y} width={Math.max(1, step - 2)} height={h} fill={s.colour} /> : null
              })}
            </g>
          )
        })}
        <text x='0' y={height + 16} font-size='12' fill='#1a1a1a'>{props.labels[0]}</text>
        <text x={width} y={height + 16} font-size='12' fill='#1a1a1a' text-anchor='end'>{props.labels[props.labels.length - 1]}</text>
      </svg>
      <figcaption>{props.title} (max {max}){props.series.length > 1 && <>: {props.series.map(s => <span key={s.name} class='legend'><svg width='12' height='12' aria-hidden='true'><rect width='12' height='12' fill={s.colour} /></svg> {s.name}</span>)}</>}</figcaption>
      <table class='visually-hidden'><caption>{props.title}</caption>
        <thead><tr><th scope='col'>When</th>{props.series.map(s => <th key={s.name} scope='col'>{s.name}</th>)}</tr></thead>
        <tbody>{props.labels.map((l, i) => <tr key={l}><th scope='row'>{l}</th>{props.series.map(s => <td key={s.name}>{s.values[i] ?? 0}</td>)}</tr>)}</tbody>
      </table>
    </figure>
  )
}
