import { useEffect, useState } from 'preact/hooks'
import { api, when, type ApiErrorBody } from '../api.js'
import { Page } from '../components/form.js'
import { Bars } from '../components/bars.js'
import { Columns } from '../components/columns.js'
import '../components/stack.css'
import './overview.css'

interface Quality { state: 'measured' | 'no_matured_labels' | 'challenger_in_shadow' | 'too_few_frauds', matured_labels: number, matured_through: number | null, challenger_trained_through: number | null }
interface Overview {
  decisions: number
  per_minute: Array<{ minute: number, approve: number, flag: number, reject: number }>
  score_histogram: number[]
  latency_ms: { p50: number | null, p99: number | null }
  rule_hits: { bucket_seconds: number, rules: Array<{ id: string, hits: number, buckets: number[] }> }
  model: { version: string, trained_labels: number, evaluation: { rows: number, frauds: number, champion_ap: number, challenger_ap: number, promoted: boolean } | null, quality: Quality }
  cases: { capped: boolean, open: number, in_review: number, oldest_unclosed_created: number | null, oldest_unclosed_age_seconds: number | null } | null
  webhooks: { endpoints: number, failed_not_replayed: number, failed_last_24h: number, capped: boolean, troubled: Array<{ id: string, url: string, status: string, health: 'failing' | 'degraded', failed: number, retrying: number }> } | null
  lag: Record<string, number>
  from: number
  truncated: boolean
}

const hhmm = (unix: number) => new Date(unix * 1000).toISOString().slice(11, 16)

/** An age in words at a glance: "3 d 4 h", "5 h 12 min", "40 min", "under a minute". */
export function age (seconds: number): string {
  const d = Math.floor(seconds / 86_400)
  const h = Math.floor((seconds % 86_400) / 3600)
  const m = Math.floor((seconds % 3600) / 60)
  if (d > 0) return `${d} d ${h} h`
  if (h > 0) return `${h} h ${m} min`
  return m > 0 ? `${m} min` : 'under a minute'
}

/** Why quality on matured labels is not measured yet, or what it was (the feedback topology: docs/dashboard.md). */
function quality (o: Overview['model']): string {
  const e = o.evaluation
  if (e !== null) return `average precision ${e.champion_ap.toFixed(3)} (champion) / ${e.challenger_ap.toFixed(3)} (last challenger, ${e.promoted ? 'promoted' : 'rejected'}), on ${e.rows} decisions with ${e.frauds} frauds`
  const q = o.quality
  switch (q.state) {
    case 'no_matured_labels':
      return 'Not measured yet: no decision has matured. A decision\u2019s label matures LABEL_MATURITY_DAYS (10 by default) after it was recorded; quality is first measured when trees trained on matured labels are compared with the serving model, which needs MODEL_MIN_FRAUDS (30 by default) frauds among them.'
    case 'too_few_frauds':
      return `Not measured yet: ${q.matured_labels} decisions have matured (through ${q.matured_through === null ? '—' : when(q.matured_through)}), but no trees were trained on them: the matured labels must hold MODEL_MIN_FRAUDS (30 by default) frauds first.`
    case 'challenger_in_shadow':
      return `Not measured yet: trees trained through ${q.challenger_trained_through === null ? '—' : when(q.challenger_trained_through)} score in shadow; they are compared once the decisions matured since hold MODEL_MIN_FRAUDS (30 by default) frauds.`
    default:
      return 'not measured yet'
  }
}

/** A rule's hits per bucket as small columns (the figures are in the row's text for a screen reader). */
function Trend (props: { buckets: number[] }) {
  const max = Math.max(1, ...props.buckets)
  const w = 8
  return (
    <svg class='trend' width={props.buckets.length * w} height='24' aria-hidden='true' focusable='false'>
      {props.buckets.map((n, i) => <rect key={i} x={i * w + 1} y={24 - Math.max(n > 0 ? 2 : 0, (n / max) * 24)} width={w - 2} height={Math.max(n > 0 ? 2 : 0, (n / max) * 24)} fill='#0b57d0' />)}
    </svg>
  )
}

/** The last hour for an operator: the case backlog, failed webhook deliveries, rule hit trends, decisions, the model and its quality, lag. */
export function OverviewPage () {
  const [o, setO] = useState<Overview | null>(null)
  const [error, setError] = useState<ApiErrorBody | null>(null)
  const [version, setVersion] = useState(0)
  useEffect(() => {
    void api<Overview>('GET', '/v1/overview?minutes=60').then(res => { if (res.ok) setO(res.data); else setError(res.error) })
    const timer = setInterval(() => setVersion(v => v + 1), 30_000)
    return () => clearInterval(timer)
  }, [version])
  if (error !== null) return <Page title='Overview'><p class='error' role='alert'>{error.message}</p></Page>
  if (o === null) return <Page title='Overview'><p>Loading…</p></Page>
  const bucketMinutes = o.rule_hits.bucket_seconds / 60
  const w = o.webhooks
  // Groups behind, the most first; those caught up are counted, not drawn.
  const lagGroups = Object.keys(o.lag).length
  const behind = Object.entries(o.lag).filter(([, n]) => n > 0).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
  return (
    <Page title='Overview'>
      <div class='tiles'>
        {o.cases !== null && (
          <a class='tile' href='/dashboard/' data-testid='overview-backlog'>
            <span class='tile-figure'>{o.cases.open + o.cases.in_review}{o.cases.capped ? '+' : ''}</span>
            <span class='tile-label'>open cases: {o.cases.open} open, {o.cases.in_review} in review</span>
          </a>
        )}
        {o.cases !== null && (
          <a class='tile' href='/dashboard/' data-testid='overview-oldest'>
            <span class='tile-figure'>{o.cases.oldest_unclosed_age_seconds === null ? '—' : age(o.cases.oldest_unclosed_age_seconds)}</span>
            <span class='tile-label'>{o.cases.oldest_unclosed_created === null ? 'no case waiting' : `the oldest open case\u2019s age (opened ${when(o.cases.oldest_unclosed_created)})`}</span>
          </a>
        )}
        {w !== null && (
          <a class={`tile${w.failed_not_replayed > 0 ? ' alarm' : ''}`} href='/dashboard/webhooks' data-testid='overview-failed-deliveries'>
            <span class='tile-figure'>{w.failed_last_24h}{w.capped ? '+' : ''}</span>
            <span class='tile-label'>failed webhook deliveries in the last 24 h; {w.failed_not_replayed}{w.capped ? '+' : ''} not replayed in all</span>
          </a>
        )}
        {w !== null && (
          <a class={`tile${w.troubled.some(t => t.health === 'failing') ? ' alarm' : ''}`} href='/dashboard/webhooks' data-testid='overview-failing-endpoints'>
            <span class='tile-figure'>{w.troubled.filter(t => t.health === 'failing').length}</span>
            <span class='tile-label'>of {w.endpoints} webhook endpoints failing{w.troubled.some(t => t.health === 'degraded') ? `, ${w.troubled.filter(t => t.health === 'degraded').length} degraded` : ''}</span>
          </a>
        )}
      </div>
      {w !== null && w.troubled.length > 0 && (
        <>
          <h2>Endpoints with failing deliveries</h2>
          <table class='troubled stack'>
            <caption class='visually-hidden'>Endpoints with failing deliveries</caption>
            <thead><tr><th scope='col'>Endpoint</th><th scope='col'>Health</th><th scope='col'>Failed of the newest</th><th scope='col'>Retrying</th></tr></thead>
            <tbody>{w.troubled.map(t => (
              <tr key={t.id}>
                <td data-label='Endpoint' class='wrap'><a href={`/dashboard/webhooks/${t.id}`}>{t.url}</a>{t.status === 'enabled' ? '' : ' (disabled)'}</td>
                <td data-label='Health'>{t.health === 'failing' ? 'Failing' : 'Degraded'}</td>
                <td data-label='Failed of the newest'>{t.failed}</td>
                <td data-label='Retrying'>{t.retrying}</td>
              </tr>
            ))}</tbody>
          </table>
        </>
      )}
      <dl class='facts overview-facts'>
        <dt>Decisions, last hour</dt><dd data-testid='overview-decisions'>{o.decisions}{o.truncated ? ' (more than drawn)' : ''}</dd>
        <dt>Latency p50 / p99</dt><dd>{o.latency_ms.p50 ?? '—'} ms / {o.latency_ms.p99 ?? '—'} ms</dd>
        <dt>Active model</dt><dd data-testid='overview-model'>{o.model.version} ({o.model.trained_labels} labels)</dd>
        <dt>Quality on matured labels</dt><dd data-testid='overview-quality'>{quality(o.model)}</dd>
      </dl>
      <h2>Rule hits, last hour</h2>
      {o.rule_hits.rules.length === 0 ? <p>No rule matched in the last hour.</p> : (
        <table class='rule-hits stack'>
          <caption class='visually-hidden'>The rules with the most hits in the last hour, per {bucketMinutes} minutes</caption>
          <thead><tr><th scope='col'>Rule</th><th scope='col'>Hits</th><th scope='col'>Per {bucketMinutes} minutes, from {hhmm(o.from)}</th></tr></thead>
          <tbody>{o.rule_hits.rules.map(r => (
            <tr key={r.id} data-testid={`rule-trend-${r.id}`}>
              <td data-label='Rule' class='wrap'><a href={`/dashboard/rules/${encodeURIComponent(r.id)}`}>{r.id}</a></td>
              <td data-label='Hits'>{r.hits}</td>
              <td data-label={`Per ${bucketMinutes} min`}><Trend buckets={r.buckets} /> <span class='visually-hidden'>{r.buckets.join(', ')}</span></td>
            </tr>
          ))}</tbody>
        </table>
      )}
      <Columns title='Decisions per minute by action' labels={o.per_minute.map(m => hhmm(m.minute))} series={[
        { name: 'approve', colour: '#15803d', values: o.per_minute.map(m => m.approve) },
        { name: 'flag', colour: '#b45309', values: o.per_minute.map(m => m.flag) },
        { name: 'reject', colour: '#b91c1c', values: o.per_minute.map(m => m.reject) }
      ]} />
      <Bars title='Scores (decisions per tenth)' data={o.score_histogram.map((n, i) => [`${(i / 10).toFixed(1)}–${((i + 1) / 10).toFixed(1)}`, n])} />
      <Bars title='Consumer lag per group (records)' data={behind} empty={lagGroups === 0 ? 'No consumer group runs in this instance.' : `Every consumer group of this instance is caught up (${lagGroups} groups, 0 records behind).`} />
      {behind.length > 0 && behind.length < lagGroups && <p>The other {lagGroups - behind.length} groups are caught up.</p>}
    </Page>
  )
}
