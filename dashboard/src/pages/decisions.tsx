import { useEffect, useState } from 'preact/hooks'
import { api, when, type ApiErrorBody } from '../api.js'
import { FormError, Page } from '../components/form.js'

export interface Transaction {
  id: string
  created: number
  event: string
  request: Record<string, unknown>
  decision: { score: number, action: string, risk_level: string, signals: string[], rules: string[], shadow?: unknown, counterfactual?: unknown }
  evaluation: { features: Record<string, number>, ruleset_version: string, model_version: string, base_action: string, override_gate: string | null }
}
interface AuditEntry { id: string, created: number, actor: string, action: string }

const FIELDS = [['trace_id', 'Trace id'], ['user_id', 'User'], ['email', 'Email'], ['device_id', 'Device'], ['card', 'Card']] as const

/** A table of decisions, newest first, each linked to its page. */
export function DecisionTable (props: { rows: Transaction[], caption: string }) {
  return (
    <table class='decisions'>
      <caption class='visually-hidden'>{props.caption}</caption>
      <thead><tr><th scope='col'>Trace id</th><th scope='col'>Time</th><th scope='col'>Event</th><th scope='col'>Action</th><th scope='col'>Score</th><th scope='col'>Rules</th></tr></thead>
      <tbody>{props.rows.map(t => (
        <tr key={t.id}>
          <td><a href={`/dashboard/decisions/${t.id}`}>{t.id}</a></td><td>{when(t.created)}</td><td>{t.event}</td>
          <td>{t.decision.action}</td><td>{t.decision.score.toFixed(3)}</td><td>{t.decision.rules.join(', ') || '—'}</td>
        </tr>
      ))}</tbody>
    </table>
  )
}

/** Search decisions by trace id, user, email, device or card. */
export function Decisions () {
  const [field, setField] = useState<typeof FIELDS[number][0]>('user_id')
  const [value, setValue] = useState('')
  const [rows, setRows] = useState<Transaction[] | null>(null)
  const [error, setError] = useState<ApiErrorBody | null>(null)
  const search = async (e: Event) => {
    e.preventDefault()
    const v = value.trim()
    if (v === '') { setError({ type: 'invalid_request_error', code: 'parameter_missing', message: 'Enter a value to search for.', param: field }); return }
    if (field === 'trace_id') { location.assign(`/dashboard/decisions/${encodeURIComponent(v)}`); return }
    const res = await api<{ data: Transaction[] }>('GET', `/v1/transactions?${new URLSearchParams({ [field]: v, limit: '50' })}`)
    if (res.ok) { setRows(res.data.data); setError(null) } else setError(res.error)
  }
  const mine = error !== null && error.param === field
  return (
    <Page title='Decisions'>
      <form class='filters' onSubmit={search} aria-label='Search decisions'>
        <label>Search by <select value={field} onChange={e => setField((e.target as HTMLSelectElement).value as 'user_id')}>
          {FIELDS.map(([f, label]) => <option key={f} value={f}>{label}</option>)}
        </select></label>
        <label>Value <input value={value} maxLength={256} onInput={e => setValue((e.target as HTMLInputElement).value)} aria-invalid={mine} aria-describedby={mine ? 'search-error' : undefined} /></label>
        <button type='submit'>Search</button>
      </form>
      {mine && <p id='search-error' class='error' role='alert'>{error.message}</p>}
      <FormError error={error} fields={[field]} />
      {rows !== null && (rows.length === 0 ? <p>No decisions among the most recent ones.</p> : <DecisionTable rows={rows} caption='Decisions found' />)}
    </Page>
  )
}

/** One decision: what was asked, what was answered, what it was evaluated with, and its audit trail. */
export function DecisionPage (props: { id: string }) {
  const [tx, setTx] = useState<Transaction | null>(null)
  const [audit, setAudit] = useState<AuditEntry[]>([])
  const [error, setError] = useState<ApiErrorBody | null>(null)
  useEffect(() => {
    void (async () => {
      const res = await api<Transaction>('GET', `/v1/transactions/${encodeURIComponent(props.id)}`)
      if (!res.ok) { setError(res.error); return }
      setTx(res.data)
      const a = await api<{ data: AuditEntry[] }>('GET', `/v1/audit?trace_id=${encodeURIComponent(props.id)}`)
      if (a.ok) setAudit(a.data.data)
    })()
  }, [props.id])
  if (error !== null) return <Page title='Decision'><p class='error' role='alert'>{error.message}</p></Page>
  if (tx === null) return <Page title='Decision'><p>Loading…</p></Page>
  return (
    <Page title={`Decision ${tx.id}`}>
      <dl class='facts'>
        <dt>Time</dt><dd>{when(tx.created)}</dd>
        <dt>Event</dt><dd>{tx.event}</dd>
        <dt>Action</dt><dd data-testid='decision-action'>{tx.decision.action} (before gates: {tx.evaluation.base_action}{tx.evaluation.override_gate !== null ? `, gate ${tx.evaluation.override_gate}` : ''})</dd>
        <dt>Score</dt><dd>{tx.decision.score.toFixed(3)} ({tx.decision.risk_level})</dd>
        <dt>Signals</dt><dd>{tx.decision.signals.join(', ') || '—'}</dd>
        <dt>Rules</dt><dd>{tx.decision.rules.join(', ') || '—'}</dd>
        <dt>Versions</dt><dd>ruleset {tx.evaluation.ruleset_version}, model {tx.evaluation.model_version}</dd>
      </dl>
      <h2>Request</h2>
      <pre class='payload'>{JSON.stringify(tx.request, null, 2)}</pre>
      {tx.decision.counterfactual !== undefined && <><h2>Counterfactual</h2><pre class='payload'>{JSON.stringify(tx.decision.counterfactual, null, 2)}</pre></>}
      <details><summary>Features it was evaluated with</summary>
        <table><caption class='visually-hidden'>Features</caption><thead><tr><th scope='col'>Feature</th><th scope='col'>Value</th></tr></thead>
          <tbody>{Object.entries(tx.evaluation.features).map(([k, v]) => <tr key={k}><td>{k}</td><td>{v}</td></tr>)}</tbody>
        </table>
      </details>
      <h2>Audit trail</h2>
      <ol class='history'>{audit.map(e => <li key={e.id}>{when(e.created)}: {e.action} by {e.actor}</li>)}</ol>
    </Page>
  )
}
