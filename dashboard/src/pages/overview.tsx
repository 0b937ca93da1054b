import { useEffect, useState } from 'preact/hooks'
import { api, type ApiErrorBody } from '../api.js'
import { Page } from '../components/form.js'
import { Bars } from '../components/bars.js'
import { Columns } from '../components/columns.js'

interface Overview {
  decisions: number
  per_minute: Array<{ minute: number, approve: number, flag: number, reject: number }>
  score_histogram: number[]
  latency_ms: { p50: number | null, p99: number | null }
  model: { version: string, trained_labels: number, evaluation: { rows: number, frauds: number, champion_ap: number, challenger_ap: number, promoted: boolean } | null }
  lag: Record<string, number>
  truncated: boolean
}

const hhmm = (unix: number) => new Date(unix * 1000).toISOString().slice(11, 16)

/** The last hour: decisions per minute by action, scores, latency, the model and its quality, lag per topology. */
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
  const e = o.model.evaluation
  return (
    <Page title='Overview'>
      <dl class='facts'>
        <dt>Decisions, last hour</dt><dd data-testid='overview-decisions'>{o.decisions}{o.truncated ? ' (more than drawn)' : ''}</dd>
        <dt>Latency p50 / p99</dt><dd>{o.latency_ms.p50 ?? '—'} ms / {o.latency_ms.p99 ?? '—'} ms</dd>
        <dt>Active model</dt><dd data-testid='overview-model'>{o.model.version} ({o.model.trained_labels} labels)</dd>
        <dt>Quality on matured labels</dt><dd>{e === null ? 'not measured yet' : `average precision ${e.champion_ap.toFixed(3)} (champion) / ${e.challenger_ap.toFixed(3)} (last challenger, ${e.promoted ? 'promoted' : 'rejected'}), on ${e.rows} decisions with ${e.frauds} frauds`}</dd>
      </dl>
      <Columns title='Decisions per minute by action' labels={o.per_minute.map(m => hhmm(m.minute))} series={[
        { name: 'approve', colour: '#15803d', values: o.per_minute.map(m => m.approve) },
        { name: 'flag', colour: '#b45309', values: o.per_minute.map(m => m.flag) },
        { name: 'reject', colour: '#b91c1c', values: o.per_minute.map(m => m.reject) }
      ]} />
      <Bars title='Scores (decisions per tenth)' data={o.score_histogram.map((n, i) => [`${(i / 10).toFixed(1)}–${((i + 1) / 10).toFixed(1)}`, n])} />
      <Bars title='Consumer lag per group (records)' data={Object.entries(o.lag).sort(([a], [b]) => a < b ? -1 : 1)} />
    </Page>
  )
}
