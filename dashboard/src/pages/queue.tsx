import { useEffect, useState } from 'preact/hooks'
import { api, can, when, type ApiErrorBody, type Session } from '../api.js'
import { Page } from '../components/form.js'

export interface CaseSummary { id: string, trace_id: string | null, status: string, outcome: string | null, assignee: string | null, reason: string, rules: string[], score: number | null, subjects: Record<string, string>, created: number }
interface List<T> { data: T[], has_more: boolean }

const PAGE_SIZE = 50

/** Open and in-review cases, oldest first or highest score first, filtered by status, rule, score range and assignee; paged by cursor. */
export function Queue (props: { session: Session, mode: string }) {
  const [status, setStatus] = useState<'open' | 'in_review'>('open')
  const [rule, setRule] = useState('')
  const [assignee, setAssignee] = useState('')
  const [order, setOrder] = useState<'created' | 'score'>('created')
  const [minScore, setMinScore] = useState('')
  const [maxScore, setMaxScore] = useState('')
  const [scoreError, setScoreError] = useState<string | null>(null)
  const [cursors, setCursors] = useState<string[]>([])
  const [page, setPage] = useState<List<CaseSummary> | null>(null)
  const [error, setError] = useState<ApiErrorBody | null>(null)
  const [reload, setReload] = useState(0)

  useEffect(() => {
    const q = new URLSearchParams({ status, order, limit: String(PAGE_SIZE) })
    if (minScore !== '') q.set('min_score', minScore)
    if (maxScore !== '') q.set('max_score', maxScore)
    if (rule !== '') q.set('rule', rule)
    if (assignee !== '') q.set('assignee', assignee)
    const after = cursors[cursors.length - 1]
    if (after !== undefined) q.set('starting_after', after)
    void api<List<CaseSummary>>('GET', `/v1/cases?${q}`).then(res => {
      if (res.ok) { setPage(res.data); setError(null) } else setError(res.error)
    })
  }, [status, rule, assignee, order, minScore, maxScore, cursors, reload, props.mode])

  const reset = () => setCursors([])
  /** A score bound as the API takes it (0..1, up to 6 decimals), checked before it is sent. */
  const setBound = (set: (v: string) => void) => (e: Event) => {
    const v = (e.target as HTMLInputElement).value.trim()
    if (v !== '' && !/^(0(\.[0-9]{1,6})?|1(\.0{1,6})?)$/.test(v)) { setScoreError('A score is a number from 0 to 1.'); return }
    setScoreError(null); set(v); reset()
  }
  const claim = async (id: string) => {
    const res = await api('POST', `/v1/cases/${id}/assign`, { assignee: props.session.user.email })
    if (res.ok) setReload(n => n + 1); else setError(res.error)
  }
  return (
    <Page title='Review queue'>
      <form class='filters' onSubmit={e => e.preventDefault()} aria-label='Filters'>
        <label>Status <select value={status} onChange={e => { setStatus((e.target as HTMLSelectElement).value as 'open'); reset() }}>
          <option value='open'>Open</option><option value='in_review'>In review</option>
        </select></label>
        <label>Rule <input value={rule} maxLength={200} onChange={e => { setRule((e.target as HTMLInputElement).value.trim()); reset() }} /></label>
        <label>Assignee <input value={assignee} maxLength={200} onChange={e => { setAssignee((e.target as HTMLInputElement).value.trim()); reset() }} /></label>
        <label>Score from <input class='score' inputMode='decimal' aria-describedby='score-error' onChange={setBound(setMinScore)} /></label>
        <label>to <input class='score' inputMode='decimal' aria-describedby='score-error' onChange={setBound(setMaxScore)} /></label>
        <label>Order <select value={order} onChange={e => { setOrder((e.target as HTMLSelectElement).value as 'created'); reset() }}>
          <option value='created'>Oldest first</option><option value='score'>Highest score first</option>
        </select></label>
      </form>
      {scoreError !== null && <p id='score-error' class='error' role='alert'>{scoreError}</p>}
      {error !== null && <p class='error' role='alert'>{error.message}</p>}
      {page === null ? <p>Loading…</p> : page.data.length === 0 ? <p>No cases.</p> : (
        <table class='cases'>
          <caption class='visually-hidden'>Cases</caption>
          <thead><tr><th scope='col'>Case</th><th scope='col'>Opened</th><th scope='col'>Score</th><th scope='col'>Subjects</th><th scope='col'>Rules</th><th scope='col'>Assignee</th><th scope='col'><span class='visually-hidden'>Actions</span></th></tr></thead>
          <tbody>
            {page.data.map(c => (
              <tr key={c.id}>
                <td><a href={`/dashboard/cases/${c.id}`}>{c.id}</a></td>
                <td>{when(c.created)}</td>
                <td>{c.score === null ? '—' : c.score.toFixed(3)}</td>
                <td>{Object.entries(c.subjects).map(([k, v]) => `${k}: ${v}`).join(', ')}</td>
                <td>{c.rules.join(', ')}</td>
                <td>{c.assignee ?? '—'}</td>
                <td>{c.status === 'open' && can(props.session, 'cases:write') && <button type='button' onClick={() => { void claim(c.id) }}>Claim</button>}</td>
              </tr>
            ))}
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
