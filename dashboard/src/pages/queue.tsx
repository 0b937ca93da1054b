import { useEffect, useState } from 'preact/hooks'
import { api, can, when, type ApiErrorBody, type Session } from '../api.js'
import { Page } from '../components/form.js'
import { BulkDispose, BulkOutcome, type BulkResult } from '../components/bulk-dispose.js'
import { age, money, subjectsText } from '../format.js'
import '../components/stack.css'
import './queue.css'

export interface Signal { code: string, description: string }
export interface CaseTransaction {
  event: string, amount: number | null, currency: string | null, merchant: string | null, channel: string | null
  location: { country: string | null, city: string | null, lat: number | null, lon: number | null } | null
  action: string, risk_level: string, signals: Signal[]
  shadow: { action: string, rules: string[] } | null
  counterfactual: { action: string, changes: Array<{ field: string, from: number, to: number }> } | null
}
export interface CaseSummary { id: string, trace_id: string | null, status: string, outcome: string | null, assignee: string | null, reason: string, rules: string[], score: number | null, subjects: Record<string, string>, transaction: CaseTransaction | null, created: number }
interface List<T> { data: T[], has_more: boolean }
interface Glance { open: number, in_review: number, oldest_unclosed_created: number | null, assignees: Array<{ assignee: string, in_review: number }>, assigned_in_review?: number }

const PAGE_SIZE = 50
type Show = 'open' | 'in_review' | 'mine' | 'closed'

/** The queue at a glance: how many wait, the oldest's age, how many are the analyst's. */
function AtAGlance (props: { glance: Glance | null }) {
  const g = props.glance
  if (g === null) return <p class='glance'>…</p>
  return (
    <p class='glance' data-testid='queue-glance'>
      <strong>{g.open}</strong> open · <strong>{g.in_review}</strong> in review
      {g.oldest_unclosed_created !== null && <> · oldest waiting <strong>{age(g.oldest_unclosed_created)}</strong></>}
      {g.assigned_in_review !== undefined && <> · <strong>{g.assigned_in_review}</strong> assigned to you</>}
    </p>
  )
}

/**
 * Cases to review: counts and the oldest's age at the top; filters by status (or "assigned to me"), rule and
 * assignee from pickers, score range and order; each row with the amount, event, action and signals; rows
 * chosen are closed together (one call, each case on its own). Paged by cursor.
 */
export function Queue (props: { session: Session, mode: string }) {
  const me = props.session.user.email
  const [show, setShow] = useState<Show>('open')
  const [rule, setRule] = useState('')
  const [assignee, setAssignee] = useState('')
  const [order, setOrder] = useState<'created' | 'score'>('created')
  const [minScore, setMinScore] = useState('')
  const [maxScore, setMaxScore] = useState('')
  const [scoreError, setScoreError] = useState<string | null>(null)
  const [cursors, setCursors] = useState<string[]>([])
  const [page, setPage] = useState<List<CaseSummary> | null>(null)
  const [glance, setGlance] = useState<Glance | null>(null)
  const [rules, setRules] = useState<string[]>([])
  const [chosen, setChosen] = useState<Set<string>>(new Set())
  const [bulk, setBulk] = useState<BulkResult | null>(null)
  const [error, setError] = useState<ApiErrorBody | null>(null)
  const [reload, setReload] = useState(0)
  const mayWrite = can(props.session, 'cases:write')

  useEffect(() => {
    void api<List<{ id: string }>>('GET', '/v1/rules?limit=100').then(res => { if (res.ok) setRules(res.data.data.map(r => r.id)) })
  }, [props.mode])
  useEffect(() => {
    void api<Glance>('GET', `/v1/cases/summary?${new URLSearchParams({ assignee: me })}`).then(res => { if (res.ok) setGlance(res.data) })
  }, [props.mode, reload])
  useEffect(() => {
    const q = new URLSearchParams({ status: show === 'mine' ? 'in_review' : show, order, limit: String(PAGE_SIZE) })
    if (minScore !== '') q.set('min_score', minScore)
    if (maxScore !== '') q.set('max_score', maxScore)
    if (rule !== '') q.set('rule', rule)
    const who = show === 'mine' ? me : assignee
    if (who !== '') q.set('assignee', who)
    const after = cursors[cursors.length - 1]
    if (after !== undefined) q.set('starting_after', after)
    void api<List<CaseSummary>>('GET', `/v1/cases?${q}`).then(res => {
      if (res.ok) { setPage(res.data); setError(null) } else setError(res.error)
    })
  }, [show, rule, assignee, order, minScore, maxScore, cursors, reload, props.mode])

  const reset = () => { setCursors([]); setChosen(new Set()) }
  /** A score bound as the API takes it (0..1, up to 6 decimals), checked before it is sent. */
  const setBound = (set: (v: string) => void) => (e: Event) => {
    const v = (e.target as HTMLInputElement).value.trim()
    if (v !== '' && !/^(0(\.[0-9]{1,6})?|1(\.0{1,6})?)$/.test(v)) { setScoreError('A score is a number from 0 to 1.'); return }
    setScoreError(null); set(v); reset()
  }
  const claim = async (id: string) => {
    const res = await api('POST', `/v1/cases/${id}/assign`, { assignee: me })
    if (res.ok) setReload(n => n + 1); else setError(res.error)
  }
  const toggle = (id: string, on: boolean) => setChosen(s => { const next = new Set(s); if (on) next.add(id); else next.delete(id); return next })
  const rows = page?.data ?? []
  const allChosen = rows.length > 0 && rows.every(c => chosen.has(c.id))
  const assignees = glance?.assignees ?? []
  return (
    <Page title='Review queue'>
      <AtAGlance glance={glance} />
      <form class='filters' onSubmit={e => e.preventDefault()} aria-label='Filters'>
        <label>Show <select value={show} onChange={e => { setShow((e.target as HTMLSelectElement).value as Show); reset() }}>
          <option value='open'>Open</option><option value='in_review'>In review</option><option value='mine'>Assigned to me</option><option value='closed'>Closed</option>
        </select></label>
        <label>Rule <select value={rule} onChange={e => { setRule((e.target as HTMLSelectElement).value); reset() }}>
          <option value=''>Any rule</option>
          {rules.map(r => <option key={r} value={r}>{r}</option>)}
        </select></label>
        <label>Assignee <select value={show === 'mine' ? me : assignee} disabled={show === 'mine'} onChange={e => { setAssignee((e.target as HTMLSelectElement).value); reset() }}>
          <option value=''>Anyone</option>
          {[...new Set([me, ...assignees.map(a => a.assignee)])].map(a => <option key={a} value={a}>{a === me ? `${a} (me)` : a}{assignees.find(x => x.assignee === a) !== undefined ? ` · ${assignees.find(x => x.assignee === a)!.in_review}` : ''}</option>)}
        </select></label>
        <label>Score from <input class='score' inputMode='decimal' aria-describedby='score-error' onChange={setBound(setMinScore)} /></label>
        <label>to <input class='score' inputMode='decimal' aria-describedby='score-error' onChange={setBound(setMaxScore)} /></label>
        <label>Order <select value={order} onChange={e => { setOrder((e.target as HTMLSelectElement).value as 'created'); reset() }}>
          <option value='created'>Oldest first</option><option value='score'>Highest score first</option>
        </select></label>
      </form>
      {scoreError !== null && <p id='score-error' class='error' role='alert'>{scoreError}</p>}
      {error !== null && <p class='error' role='alert'>{error.message}</p>}
      {mayWrite && chosen.size > 0 && (
        <BulkDispose ids={[...chosen]} session={props.session} label='Close the chosen cases' onDone={result => { setBulk(result); setChosen(new Set(result.data.filter(r => !r.disposed).map(r => r.id))); setReload(n => n + 1) }} />
      )}
      {bulk !== null && <BulkOutcome result={bulk} />}
      {page === null ? <p>Loading…</p> : rows.length === 0 ? <p>No cases.</p> : (
        <table class='cases stack'>
          <caption class='visually-hidden'>Cases</caption>
          <thead><tr>
            {mayWrite && <th scope='col'><input type='checkbox' aria-label='Choose every case of this page' checked={allChosen} onChange={e => { const on = (e.target as HTMLInputElement).checked; setChosen(on ? new Set(rows.filter(c => c.status !== 'closed').map(c => c.id)) : new Set()) }} /></th>}
            <th scope='col'>Case</th><th scope='col'>Waiting</th><th scope='col'>Amount</th><th scope='col'>Event</th><th scope='col'>Action</th><th scope='col'>Score</th><th scope='col'>Signals</th><th scope='col'>Subjects</th><th scope='col'>Rules</th><th scope='col'>Assignee</th><th scope='col'><span class='visually-hidden'>Actions</span></th>
          </tr></thead>
          <tbody>
            {rows.map(c => {
              const t = c.transaction
              return (
                <tr key={c.id}>
                  {mayWrite && <td>{c.status !== 'closed' && <input type='checkbox' aria-label={`Choose ${c.id}`} checked={chosen.has(c.id)} onChange={e => toggle(c.id, (e.target as HTMLInputElement).checked)} />}</td>}
                  <td data-label='Case'><a href={`/dashboard/cases/${c.id}`}>{c.id}</a></td>
                  <td data-label='Waiting'><span title={when(c.created)}>{age(c.created)}</span></td>
                  <td data-label='Amount' class='num'>{t === null ? '—' : money(t.amount, t.currency)}</td>
                  <td data-label='Event'>{t?.event ?? '—'}</td>
                  <td data-label='Action'>{t?.action ?? '—'}</td>
                  <td data-label='Score' class='num'>{c.score === null ? '—' : c.score.toFixed(3)}</td>
                  <td data-label='Signals'>{t === null || t.signals.length === 0 ? '—' : <ul class='signals'>{t.signals.slice(0, 3).map(s => <li key={s.code} title={s.description}>{s.code.replaceAll('_', ' ')}</li>)}{t.signals.length > 3 && <li>+{t.signals.length - 3}</li>}</ul>}</td>
                  <td data-label='Subjects'>{subjectsText(c.subjects)}</td>
                  <td data-label='Rules'>{c.rules.join(', ') || '—'}</td>
                  <td data-label='Assignee'>{c.assignee ?? '—'}</td>
                  <td>{c.status === 'open' && mayWrite && <button type='button' onClick={() => { void claim(c.id) }} aria-label={`Claim ${c.id}`}>Claim</button>}</td>
                </tr>
              )
            })}
          </tbody>
        </table>
      )}
      <nav class='pager' aria-label='Pages'>
        <button type='button' disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))}>Previous</button>
        <button type='button' disabled={page?.has_more !== true} onClick={() => page !== null && setCursors([...cursors, page.data[page.data.length - 1]!.id])}>Next</button>
      </nav>
    </Page>
  )
}
