import { useEffect, useState } from 'preact/hooks'
import { auditLine, type AuditEntry } from '../audit-line.js'
import { useLocation } from 'preact-iso'
import { api, when, type ApiErrorBody } from '../api.js'
import { FormError, Page } from '../components/form.js'
import './decisions.css'

export interface Transaction {
  id: string
  created: number
  event: string
  request: Record<string, unknown>
  decision: { score: number, action: string, risk_level: string, signals: string[], rules: string[], shadow?: unknown, counterfactual?: unknown }
  evaluation: { features: Record<string, number>, ruleset_version: string, model_version: string, base_action: string, override_gate: string | null }
}
interface List<T> { data: T[], has_more: boolean }

/** The subjects a search can name (GET /v1/transactions), with the words the page uses for each. */
const SUBJECTS = [['user_id', 'User', 'of this user'], ['email', 'Email', 'with this email'], ['device_id', 'Device', 'from this device'], ['ip', 'IP address', 'from this IP address'], ['card', 'Card', 'with this card']] as const
type Subject = typeof SUBJECTS[number][0]
type Field = 'trace_id' | Subject
const FIELDS: ReadonlyArray<readonly [Field, string]> = [['trace_id', 'Trace id'], ...SUBJECTS.map(([s, label]) => [s, label] as const)]
const PAGE_SIZE = 50

/** A subject's value in a request as the service indexes it (`card` is the custom key `card_fingerprint`). */
function subjectOf (request: Record<string, unknown>, subject: Subject): string | undefined {
  const v = request[subject === 'card' ? 'card_fingerprint' : subject]
  return typeof v === 'string' && v !== '' ? v : undefined
}

/** The search page's address for one subject's decisions. */
export const searchHref = (subject: Subject, value: string) => `/dashboard/decisions?${new URLSearchParams({ [subject]: value })}`

/** A table of decisions, newest first, each linked to its page; on a phone, one card per decision. */
export function DecisionTable (props: { rows: Transaction[], caption: string }) {
  return (
    <table class='decisions'>
      <caption class='visually-hidden'>{props.caption}</caption>
      <thead><tr><th scope='col'>Trace id</th><th scope='col'>Time</th><th scope='col'>Event</th><th scope='col'>User</th><th scope='col'>Action</th><th scope='col'>Score</th><th scope='col'>Rules</th></tr></thead>
      <tbody>{props.rows.map(t => (
        <tr key={t.id}>
          <td data-label='Trace id' class='id wide'><a href={`/dashboard/decisions/${t.id}`}>{t.id}</a></td>
          <td data-label='Time' class='wide'>{when(t.created)}</td>
          <td data-label='Event'>{t.event}</td>
          <td data-label='User' class='id'>{subjectOf(t.request, 'user_id') ?? '—'}</td>
          <td data-label='Action'>{t.decision.action}</td>
          <td data-label='Score'>{t.decision.score.toFixed(3)}</td>
          <td data-label='Rules' class='wide'>{t.decision.rules.join(', ') || '—'}</td>
        </tr>
      ))}</tbody>
    </table>
  )
}

/** Which decisions the page shows: "Decisions 51–100, newest first. Older ones follow: Next." */
function pageText (from: number, shown: number, hasMore: boolean): string {
  if (from === 1 && !hasMore) return `${shown} ${shown === 1 ? 'decision' : 'decisions'}, newest first.`
  const range = shown === 1 ? `Decision ${from}` : `Decisions ${from}–${from + shown - 1}`
  return `${range}, newest first. ${hasMore ? 'Older ones follow: Next.' : 'These are the oldest.'}`
}

/**
 * Search decisions by trace id (opens its page) or by a subject: user, email, device, IP address or card, every
 * decision of it, 50 a page with Next and Previous. The search is the page's address (`?ip=203.0.113.9`), so
 * it can be linked to, reloaded and gone back to.
 */
export function Decisions () {
  const { query, route } = useLocation()
  const searched = SUBJECTS.find(([s]) => query[s] !== undefined && query[s] !== '')
  const key = searched === undefined ? '' : `${searched[0]}=${query[searched[0]]!}`
  const [field, setField] = useState<Field>(searched?.[0] ?? 'user_id')
  const [value, setValue] = useState(searched === undefined ? '' : query[searched[0]]!)
  // Each page's `starting_after`, for Previous; kept per search (a new search starts at its first page).
  const [pages, setPages] = useState<{ key: string, cursors: string[] }>({ key, cursors: [] })
  const cursors = pages.key === key ? pages.cursors : []
  // The page shown, with the cursors it was read at: until the next one arrives, it stays shown and numbered as it was.
  const [result, setResult] = useState<{ key: string, cursors: string[], page: List<Transaction> } | null>(null)
  const [error, setError] = useState<ApiErrorBody | null>(null)
  const after = cursors[cursors.length - 1]

  // The form shows the search of the address (after Back, or a link from a decision's page).
  useEffect(() => {
    if (searched !== undefined) { setField(searched[0]); setValue(query[searched[0]]!) }
  }, [key])
  useEffect(() => {
    if (searched === undefined) { setResult(null); return }
    let current = true
    const q = new URLSearchParams({ [searched[0]]: query[searched[0]]!, limit: String(PAGE_SIZE) })
    if (after !== undefined) q.set('starting_after', after)
    void api<List<Transaction>>('GET', `/v1/transactions?${q}`).then(res => {
      if (!current) return
      if (res.ok) { setResult({ key, cursors, page: res.data }); setError(null) } else { setResult(null); setError(res.error) }
    })
    return () => { current = false }
  }, [key, after])

  const search = (e: Event) => {
    e.preventDefault()
    const v = value.trim()
    if (v === '') { setError({ type: 'invalid_request_error', code: 'parameter_missing', message: 'Enter a value to search for.', param: field }); return }
    setError(null)
    if (field === 'trace_id') { route(`/dashboard/decisions/${encodeURIComponent(v)}`); return }
    setPages({ key: `${field}=${v}`, cursors: [] })
    route(searchHref(field, v))
  }
  const mine = error !== null && error.param === field
  const shown = result !== null && result.key === key ? result : null
  const page = shown?.page ?? null
  const at = shown?.cursors ?? []
  const what = searched === undefined ? '' : `${searched[2]} (${query[searched[0]]!})`
  return (
    <div class='decisions-page'>
      <Page title='Decisions'>
        <form class='filters' onSubmit={search} aria-label='Search decisions'>
          <label>Search by <select value={field} onChange={e => setField((e.target as HTMLSelectElement).value as Field)}>
            {FIELDS.map(([f, label]) => <option key={f} value={f}>{label}</option>)}
          </select></label>
          <label>Value <input value={value} maxLength={320} onInput={e => setValue((e.target as HTMLInputElement).value)} aria-invalid={mine} aria-describedby={mine ? 'search-error' : undefined} /></label>
          <button type='submit'>Search</button>
        </form>
        {mine && <p id='search-error' class='error' role='alert'>{error.message}</p>}
        <FormError error={error} fields={[field]} />
        {page !== null && (page.data.length === 0
          ? <p role='status'>{at.length === 0 ? `No decisions ${what}.` : 'No older decisions.'}</p>
          : (
            <>
              <p role='status' data-testid='decisions-page'>{pageText(at.length * PAGE_SIZE + 1, page.data.length, page.has_more)}</p>
              <DecisionTable rows={page.data} caption={`Decisions ${what}`} />
            </>
            ))}
        {page !== null && (at.length > 0 || page.has_more) && (
          <nav class='pager' aria-label='Pages'>
            <button type='button' disabled={at.length === 0} onClick={() => setPages({ key, cursors: at.slice(0, -1) })}>Previous</button>
            <button type='button' disabled={!page.has_more} onClick={() => setPages({ key, cursors: [...at, page.data[page.data.length - 1]!.id] })}>Next</button>
          </nav>
        )}
      </Page>
    </div>
  )
}

/** A block of JSON that scrolls within itself, reachable and named for the keyboard and screen readers. */
function JsonBlock (props: { label: string, value: unknown }) {
  return <pre class='payload' tabIndex={0} role='region' aria-label={props.label}>{JSON.stringify(props.value, null, 2)}</pre>
}

/** One decision: what was asked, what was answered, what it was evaluated with, and its audit trail. */
export function DecisionPage (props: { id: string }) {
  const [tx, setTx] = useState<Transaction | null>(null)
  const [audit, setAudit] = useState<AuditEntry[]>([])
  const [error, setError] = useState<ApiErrorBody | null>(null)
  useEffect(() => {
    void (async () => {
      const id = encodeURIComponent(props.id)
      const [res, a] = await Promise.all([api<Transaction>('GET', `/v1/transactions/${id}`), api<List<AuditEntry>>('GET', `/v1/audit?trace_id=${id}`)])
      if (!res.ok) { setError(res.error); return }
      setTx(res.data)
      if (a.ok) setAudit(a.data.data)
    })()
  }, [props.id])
  if (error !== null) return <Page title='Decision'><p class='error' role='alert'>{error.message}</p></Page>
  if (tx === null) return <Page title='Decision'><p>Loading…</p></Page>
  const subjects = SUBJECTS.flatMap(([s, label]) => { const v = subjectOf(tx.request, s); return v === undefined ? [] : [{ s, label, v }] })
  return (
    <div class='decisions-page'>
      <Page title={`Decision ${tx.id}`}>
        <dl class='facts'>
          <dt>Time</dt><dd>{when(tx.created)}</dd>
          <dt>Event</dt><dd>{tx.event}</dd>
          <dt>Action</dt><dd data-testid='decision-action'>{tx.decision.action} (before gates: {tx.evaluation.base_action}{tx.evaluation.override_gate !== null ? `, gate ${tx.evaluation.override_gate}` : ''})</dd>
          <dt>Score</dt><dd>{tx.decision.score.toFixed(3)} ({tx.decision.risk_level})</dd>
          <dt>Signals</dt><dd>{tx.decision.signals.join(', ') || '—'}</dd>
          <dt>Rules</dt><dd>{tx.decision.rules.join(', ') || '—'}</dd>
          <dt>Versions</dt><dd>ruleset {tx.evaluation.ruleset_version}, model {tx.evaluation.model_version}</dd>
          {subjects.length > 0 && <><dt>Other decisions</dt><dd>
            <ul class='subjects' data-testid='decision-subjects'>{subjects.map(({ s, label, v }) => (
              <li key={s}><a href={searchHref(s, v)}>{label} {v}</a></li>
            ))}</ul>
          </dd></>}
        </dl>
        <h2>Request</h2>
        <JsonBlock label='Request as sent' value={tx.request} />
        {tx.decision.counterfactual !== undefined && <><h2>Counterfactual</h2>{tx.decision.counterfactual === null
          ? <p>No change of the amount would have approved it.</p>
          : <JsonBlock label='Counterfactual' value={tx.decision.counterfactual} />}</>}
        <details><summary>Features it was evaluated with</summary>
          <table class='features'><caption class='visually-hidden'>Features</caption><thead><tr><th scope='col'>Feature</th><th scope='col'>Value</th></tr></thead>
            <tbody>{Object.entries(tx.evaluation.features).map(([k, v]) => <tr key={k}><td>{k}</td><td>{v}</td></tr>)}</tbody>
          </table>
        </details>
        <h2>Audit trail</h2>
        <ol class='history'>{audit.map(e => <li key={e.id}>{when(e.created)}: {auditLine(e)}</li>)}</ol>
      </Page>
    </div>
  )
}
