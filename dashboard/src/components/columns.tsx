/**
 * Stacked columns in SVG (one per entry, one colour per series), with a hidden table of the same figures. The
 * drawing scales to the width it is given (a phone's screen); the first and last labels are text under it.
 */
export function Columns (props: { title: string, labels: string[], series: Array<{ name: string, colour: string, values: number[] }> }) {
  const width = 640
  const height = 160
  const totals = props.labels.map((_, i) => props.series.reduce((n, s) => n + (s.values[i] ?? 0), 0))
  const max = Math.max(1, ...totals)
  const step = width / Math.max(1, props.labels.length)
  return (
    <figure class='chart columns'>
      <svg role='img' aria-label={props.title} width={width} height={height} viewBox={`0 0 ${width} ${height}`}>
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
      </svg>
      <div class='axis' aria-hidden='true'><span>{props.labels[0]}</span><span>{props.labels[props.labels.length - 1]}</span></div>
      <figcaption>{props.title} (max {max}){props.series.length > 1 && <>: {props.series.map(s => <span key={s.name} class='legend'><svg width='12' height='12' aria-hidden='true'><rect width='12' height='12' fill={s.colour} /></svg> {s.name}</span>)}</>}</figcaption>
      <div class='visually-hidden'><table><caption>{props.title}</caption>
        <thead><tr><th scope='col'>When</th>{props.series.map(s => <th key={s.name} scope='col'>{s.name}</th>)}</tr></thead>
        <tbody>{props.labels.map((l, i) => <tr key={l}><th scope='row'>{l}</th>{props.series.map(s => <td key={s.name}>{s.values[i] ?? 0}</td>)}</tr>)}</tbody>
      </table></div>
    </figure>
  )
}
