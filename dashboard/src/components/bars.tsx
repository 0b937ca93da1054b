/**
 * A horizontal bar chart: each row its label, its bar and its figure, laid out by the page (labels of any length
 * wrap in their own column and never run over a bar or its figure; on a phone the chart is as wide as the screen).
 * Only the bars are drawn (SVG, widths in percent: the page's style policy allows no inline style); a screen
 * reader reads the table under it.
 */
export function Bars (props: { title: string, data: Array<[string, number]>, empty?: string }) {
  const max = Math.max(1, ...props.data.map(([, v]) => v))
  return (
    <figure class='chart'>
      <div class='bars' role='img' aria-label={props.title}>
        {props.data.length === 0 && <p class='bars-empty'>{props.empty ?? 'Nothing to draw.'}</p>}
        {props.data.map(([label, value]) => (
          <div class='bar-row' key={label}>
            <span class='bar-label'>{label}</span>
            <svg class='bar' width='100%' height='18' aria-hidden='true' focusable='false'>
              <rect x='0' y='0' height='18' width={`${value === 0 ? 0 : Math.max(0.5, (value / max) * 100)}%`} fill='#0b57d0' />
            </svg>
            <span class='bar-value'>{value}</span>
          </div>
        ))}
      </div>
      <figcaption>{props.title}</figcaption>
      {/* A table grows to its content whatever its width: the box that hides it is a block. */}
      <div class='visually-hidden'><table><caption>{props.title}</caption><tbody>{props.data.map(([l, v]) => <tr key={l}><th scope='row'>{l}</th><td>{v}</td></tr>)}</tbody></table></div>
    </figure>
  )
}
