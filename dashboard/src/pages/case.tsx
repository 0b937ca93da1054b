import { useEffect, useRef, useState } from 'preact/hooks'
import { api, can, when, type ApiErrorBody, type Session } from '../api.js'
import { FormError, Page } from '../components/form.js'
import type { BulkResult } from '../components/bulk-dispose.js'
import { age, money, subjectsText } from '../format.js'
import type { CaseSummary, CaseTransaction } from './queue.js'
import type { Transaction as Decision } from './decisions.js'
import { Trail, type HistoryEntry } from './case-trail.js'
import '../components/stack.css'
import './case.css'

interface CaseDetail extends CaseSummary { history: HistoryEntry[], notes: Array<{ id: string, body: string, author: string, author_name: string | null, created: number }> }
interface AsyncCheck { check: string, score?: number, linked_users?: number, cluster_size?: number, shared?: Record<string, number>, patterns?: string[] }
interface Scored { async_checks: AsyncCheck[], decision: { score: number }, evaluation: { features: Record<string, number>, ruleset_version: string, model_version: string } }
interface List<T> { data: T[] }
interface Related { scored: Scored | null, recent: Decision[], cases: CaseSummary[], linked: string[] }

const OUTCOMES = [['fraud', 'f'], ['safe', 's'], ['chargeback', 'c']] as const
/** How long a disposition waits, undoable, before it is sent. */
export const UNDO_MS = 5000

const get = async <T,>(path: string): Promise<T | null> => { const r = await api<T>('GET', path); return r.ok ? r.data : null }

/** Everything the page shows beside the case, read at once: the scored decision, the subject's cases and decisions, linked accounts. */
async function loadRelated (c: CaseDetail): Promise<Related> {
  const subject = Object.entries(c.subjects)[0]
  const byValue = (kind: string, value: string, limit: number) => get<List<Decision>>(`/v1/transactions?${new URLSearchParams({ [kind]: value, limit: String(limit) })}`)
  const linkKinds = (['device_id', 'email', 'card'] as const).filter(k => c.subjects[k] !== undefined)
  const [scored, recent, cases, ...links] = await Promise.all([
    c.trace_id === null ? null : get<Scored>(`/v1/transactions/${c.trace_id}`),
    subject === undefined ? null : byValue(subject[0], subject[1], 10),
    subject === undefined ? null : get<List<CaseSummary>>(`/v1/cases?${new URLSearchParams({ [subject[0]]: subject[1], limit: '100' })}`),
    ...linkKinds.map(k => byValue(k, c.subjects[k]!, 50))
  ])
  const user = c.subjects.user_id
  const linked = new Set<string>()
  links.forEach((r, i) => {
    for (const t of r?.data ?? []) { const u = t.request.user_id; if (typeof u === 'string' && u !== user) linked.add(`${u} (same ${linkKinds[i]!.replace('_id', '')})`) }
  })
  return { scored, recent: recent?.data ?? [], cases: (cases?.data ?? []).filter(x => x.id !== c.id), linked: [...linked] }
}

/** Why the decision is what it is, in words: what the rules did, and what the score says on its own. */
function explanation (c: CaseSummary, t: CaseTransaction): string {
  const score = c.score === null ? 'no score' : `a score of ${c.score.toFixed(3)} (${t.risk_level} risk)`
  const model = `The model gave it ${score}${t.signals.length > 0 ? '; the signals below raised it' : ', with no signal raising it'}.`
  if (c.rules.length > 0) return `${model} The action (${t.action}) came from the rule${c.rules.length > 1 ? 's' : ''} ${c.rules.join(', ')}, not from the score.`
  return `${model} The action (${t.action}) came from the score, at or above the ${t.action} threshold of the risk settings.`
}

function TransactionFacts (props: { c: CaseSummary, t: CaseTransaction }) {
  const { c, t } = props
  const place = t.location === null ? '—' : [t.location.city, t.location.country].filter(Boolean).join(', ') + (t.location.lat !== null ? ` (${t.location.lat.toFixed(2)}, ${t.location.lon?.toFixed(2)})` : '')
  const change = t.counterfactual?.changes[0]
  return (
    <section aria-labelledby='tx-title'>
      <h2 id='tx-title'>Transaction</h2>
      <dl class='facts' data-testid='case-transaction'>
        <dt>Amount</dt><dd class='amount'>{money(t.amount, t.currency)}</dd>
        <dt>Event</dt><dd>{t.event}</dd>
        <dt>Merchant</dt><dd>{t.merchant ?? '—'}</dd>
        <dt>Channel</dt><dd>{t.channel ?? '—'}</dd>
        <dt>Location</dt><dd>{place}</dd>
        <dt>Decision</dt><dd>{t.action}{c.trace_id !== null && <> · <a href={`/dashboard/decisions/${c.trace_id}`}>the decision {c.trace_id}</a></>}</dd>
        <dt>Why</dt><dd data-testid='score-explanation'>{explanation(c, t)}</dd>
        {t.shadow !== null && <><dt>Shadow rules</dt><dd data-testid='shadow'>{t.shadow.rules.length === 0 ? 'No shadow rule matched.' : `Would have ${t.shadow.action === 'approve' ? 'approved' : t.shadow.action === 'flag' ? 'flagged' : 'rejected'} it: ${t.shadow.rules.join(', ')}.`}</dd></>}
        {change !== undefined && <><dt>Would approve</dt><dd data-testid='counterfactual'>with an {change.field} of {money(change.to, t.currency)} instead of {money(change.from, t.currency)}.</dd></>}
      </dl>
      <h3>Signals</h3>
      {t.signals.length === 0 ? <p>No signal raised the score.</p> : (
        <ul class='described' data-testid='case-signals'>{t.signals.map(s => <li key={s.code}><strong>{s.code.replaceAll('_', ' ')}</strong>: {s.description}</li>)}</ul>
      )}
    </section>
  )
}

/** One case: the transaction and why it was flagged, the disposition (undoable), notes, related cases and decisions, the trail. */
export function CasePage (props: { id: string, session: Session, mode: string }) {
  const [c, setCase] = useState<CaseDetail | null>(null)
  const [related, setRelated] = useState<Related | null>(null)
  const [error, setError] = useState<ApiErrorBody | null>(null)
  const [version, setVersion] = useState(0)
  const [next, setNext] = useState<string | null>(null)
  const mayWrite = can(props.session, 'cases:write')

  useEffect(() => {
    void (async () => {
      const res = await api<CaseDetail>('GET', `/v1/cases/${encodeURIComponent(props.id)}`)
      if (!res.ok) { setError(res.error); return }
      setCase(res.data)
      setRelated(await loadRelated(res.data))
      if (res.data.status === 'closed') {
        const open = await get<List<CaseSummary>>('/v1/cases?status=open&limit=2')
        setNext(open?.data.find(x => x.id !== res.data.id)?.id ?? null)
      }
    })()
  }, [props.id, props.mode, version])

  const claim = async () => {
    const res = await api('POST', `/v1/cases/${encodeURIComponent(props.id)}/assign`, { assignee: props.session.user.email })
    if (res.ok) setVersion(v => v + 1); else setError(res.error)
  }

  if (error !== null && c === null) return <Page title='Case'><p class='error' role='alert'>{error.message}</p></Page>
  if (c === null) return <Page title='Case'><p>Loading…</p></Page>
  const openSiblings = related?.cases.filter(x => x.status !== 'closed') ?? []
  const caseOfTrace = new Map((related?.cases ?? []).map(x => [x.trace_id, x.id]))
  return (
    <Page title={`Case ${c.id}`}>
      <dl class='facts'>
        <dt>Status</dt><dd data-testid='case-status'>{c.status}{c.outcome !== null ? ` (${c.outcome})` : ''}</dd>
        <dt>Opened</dt><dd>{when(c.created)}, {age(c.created)} ago</dd>
        <dt>Reason</dt><dd>{c.reason}</dd>
        <dt>Assignee</dt><dd>{c.assignee ?? '—'}{c.status === 'open' && mayWrite && <> <button type='button' onClick={() => { void claim() }}>Claim</button></>}</dd>
        <dt>Subjects</dt><dd class='wrap'>{subjectsText(c.subjects)}</dd>
      </dl>
      {error !== null && <p class='error' role='alert'>{error.message}</p>}
      {c.transaction !== null && <TransactionFacts c={c} t={c.transaction} />}
      {mayWrite && (c.status !== 'closed'
        ? <Disposition c={c} session={props.session} siblings={openSiblings} onDone={() => setVersion(v => v + 1)} />
        : (c.outcome === 'safe' || c.outcome === 'fraud') && <Chargeback c={c} session={props.session} onDone={() => setVersion(v => v + 1)} />)}
      {c.status === 'closed' && <p class='next' role='status'>Case closed{c.outcome !== null ? ` as ${c.outcome}` : ''}. {next !== null ? <a href={`/dashboard/cases/${next}`} data-testid='next-case'>Next case: {next}</a> : 'No open case left.'}</p>}
      <Notes c={c} mayWrite={mayWrite} onAdded={setCase} />
      {related !== null && related.cases.length > 0 && (
        <section aria-labelledby='siblings-title'>
          <h2 id='siblings-title'>Other cases of {Object.entries(c.subjects)[0]!.join(' ')}</h2>
          <table class='stack' data-testid='sibling-cases'>
            <caption class='visually-hidden'>Other cases of the subject</caption>
            <thead><tr><th scope='col'>Case</th><th scope='col'>Status</th><th scope='col'>Amount</th><th scope='col'>Opened</th></tr></thead>
            <tbody>{related.cases.map(x => (
              <tr key={x.id}>
                <td data-label='Case'><a href={`/dashboard/cases/${x.id}`}>{x.id}</a></td>
                <td data-label='Status'>{x.status}{x.outcome !== null ? ` (${x.outcome})` : ''}</td>
                <td data-label='Amount'>{x.transaction === null ? '—' : money(x.transaction.amount, x.transaction.currency)}</td>
                <td data-label='Opened'>{age(x.created)} ago</td>
              </tr>
            ))}</tbody>
          </table>
        </section>
      )}
      {related !== null && (related.scored?.async_checks.length ?? 0) + related.linked.length > 0 && (
        <section aria-labelledby='linked-title'>
          <h2 id='linked-title'>Linked accounts</h2>
          {related.scored?.async_checks.map(a => (
            <p key={a.check} data-testid='async-check'>
              Deferred check {a.check} (score.async): {a.linked_users ?? 0} other accounts share an identifier, a cluster of {a.cluster_size ?? 1} within two hops
              {a.shared !== undefined && `; shared: ${Object.entries(a.shared).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(', ')}`}
              {a.patterns !== undefined && a.patterns.length > 0 && `; patterns: ${a.patterns.join(', ')}`}.
            </p>
          ))}
          {related.linked.length > 0 && <ul data-testid='linked-accounts'>{related.linked.map(l => <li key={l}>{l}</li>)}</ul>}
        </section>
      )}
      {related !== null && related.recent.length > 0 && (
        <section aria-labelledby='recent-title'>
          <h2 id='recent-title'>The subject's recent decisions</h2>
          <table class='stack' data-testid='recent-decisions'>
            <caption class='visually-hidden'>Recent decisions of the subject</caption>
            <thead><tr><th scope='col'>Decision</th><th scope='col'>Time</th><th scope='col'>Event</th><th scope='col'>Amount</th><th scope='col'>Action</th><th scope='col'>Score</th><th scope='col'>Case</th></tr></thead>
            <tbody>{related.recent.map(t => {
              const caseId = t.id === c.trace_id ? c.id : caseOfTrace.get(t.id)
              return (
                <tr key={t.id}>
                  <td data-label='Decision'><a href={`/dashboard/decisions/${t.id}`}>{t.id}</a></td>
                  <td data-label='Time'>{when(t.created)}</td><td data-label='Event'>{t.event}</td>
                  <td data-label='Amount'>{typeof t.request.amount === 'number' ? money(t.request.amount, typeof t.request.currency === 'string' ? t.request.currency.toUpperCase() : null) : '—'}</td>
                  <td data-label='Action'>{t.decision.action}</td><td data-label='Score'>{t.decision.score.toFixed(3)}</td>
                  <td data-label='Case'>{caseId === undefined ? '—' : caseId === c.id ? 'this case' : <a href={`/dashboard/cases/${caseId}`}>{caseId}</a>}</td>
                </tr>
              )
            })}</tbody>
          </table>
        </section>
      )}
      {related?.scored != null && (
        <details><summary>Features it was scored with (ruleset {related.scored.evaluation.ruleset_version}, model {related.scored.evaluation.model_version})</summary>
          <table><caption class='visually-hidden'>Features</caption><thead><tr><th scope='col'>Feature</th><th scope='col'>Value</th></tr></thead>
            <tbody>{Object.entries(related.scored.evaluation.features).map(([k, v]) => <tr key={k}><td>{k}</td><td>{v}</td></tr>)}</tbody>
          </table>
        </details>
      )}
      <Trail history={c.history} />
    </Page>
  )
}

/**
 * The disposition: an outcome (keys f, s, c), a reason (required: it is the case's record of why), optionally
 * the subject's other open cases with it. Ctrl+Enter or the button starts it; it is sent after UNDO_MS unless
 * undone, so a slip of the keyboard closes nothing.
 */
function Disposition (props: { c: CaseDetail, session: Session, siblings: CaseSummary[], onDone: () => void }) {
  const [outcome, setOutcome] = useState('')
  const [reason, setReason] = useState('')
  const [withSiblings, setWithSiblings] = useState(false)
  const [error, setError] = useState<ApiErrorBody | null>(null)
  const [pending, setPending] = useState<{ outcome: string, reason: string, ids: string[] } | null>(null)
  const [left, setLeft] = useState(0)
  const reasonRef = useRef<HTMLTextAreaElement>(null)

  // Keyboard: f, s or c picks the outcome and moves to the reason; Ctrl+Enter there submits.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement
      if (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT' || e.ctrlKey || e.metaKey || e.altKey) return
      const picked = OUTCOMES.find(([, key]) => key === e.key)
      if (picked !== undefined) { e.preventDefault(); setOutcome(picked[0]); reasonRef.current?.focus() }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  useEffect(() => {
    if (pending === null) return
    const started = Date.now()
    setLeft(Math.ceil(UNDO_MS / 1000))
    const tick = setInterval(() => setLeft(Math.max(0, Math.ceil((UNDO_MS - (Date.now() - started)) / 1000))), 250)
    const send = setTimeout(() => { void commit(pending) }, UNDO_MS)
    return () => { clearInterval(tick); clearTimeout(send) }
  }, [pending])

  /** One call for this case and those chosen with it: each is closed on its own, and this case's refusal is shown. */
  const commit = async (p: { outcome: string, reason: string, ids: string[] }) => {
    const res = await api<BulkResult>('POST', '/v1/cases/dispositions', { case_ids: p.ids, outcome: p.outcome, analyst: props.session.user.email, reason: p.reason })
    setPending(null)
    if (!res.ok) { setError(res.error); return }
    const mine = res.data.data.find(r => r.id === props.c.id)
    if (mine !== undefined && !mine.disposed) { setError({ type: 'invalid_request_error', code: 'refused', message: mine.error?.message ?? 'The case was not closed.' }); return }
    props.onDone()
  }
  const start = (e?: Event) => {
    e?.preventDefault()
    if (pending !== null) return
    if (outcome === '') { setError({ type: 'invalid_request_error', code: 'parameter_missing', message: 'Choose an outcome.', param: 'outcome' }); return }
    if (reason.trim() === '') { setError({ type: 'invalid_request_error', code: 'parameter_missing', message: 'Give a reason: it stays in the case\u2019s trail.', param: 'reason' }); reasonRef.current?.focus(); return }
    setError(null)
    setPending({ outcome, reason: reason.trim(), ids: [props.c.id, ...(withSiblings ? props.siblings.map(s => s.id) : [])] })
  }
  return (
    <section aria-labelledby='dispose-title'>
      <h2 id='dispose-title'>Disposition</h2>
      <form onSubmit={start} onKeyDown={e => { if (e.key === 'Enter' && e.ctrlKey) start(e) }}>
        <fieldset aria-describedby={error?.param === 'outcome' ? 'outcome-error' : undefined} disabled={pending !== null}>
          <legend>Outcome (keys f, s, c)</legend>
          {OUTCOMES.map(([o]) => (
            <label key={o} class='choice'><input type='radio' name='outcome' value={o} checked={outcome === o} onChange={() => setOutcome(o)} /> {o}</label>
          ))}
        </fieldset>
        {error?.param === 'outcome' && <p id='outcome-error' class='error' role='alert'>{error.message}</p>}
        <div class='field'>
          <label for='f-reason'>Reason (required)</label>
          <textarea id='f-reason' ref={reasonRef} maxLength={1000} value={reason} disabled={pending !== null} onInput={e => setReason((e.target as HTMLTextAreaElement).value)} aria-invalid={error?.param === 'reason'} aria-describedby={error?.param === 'reason' ? 'reason-error' : undefined} />
          {error?.param === 'reason' && <p id='reason-error' class='error' role='alert'>{error.message}</p>}
        </div>
        {props.siblings.length > 0 && (
          <label class='choice'><input type='checkbox' checked={withSiblings} disabled={pending !== null} onChange={e => setWithSiblings((e.target as HTMLInputElement).checked)} /> Also close the subject's {props.siblings.length} other open {props.siblings.length === 1 ? 'case' : 'cases'} with this outcome</label>
        )}
        <FormError error={error} fields={['outcome', 'reason']} />
        {pending === null && <button type='submit'>Dispose (Ctrl+Enter)</button>}
      </form>
      {/* Outside the form: the Undo button must never submit it. */}
      {pending !== null && (
        <p key='pending' class='pending' role='status' data-testid='pending-disposition'>
          Closing {pending.ids.length === 1 ? 'this case' : `${pending.ids.length} cases`} as {pending.outcome} in {left} s.{' '}
          <button type='button' onClick={() => setPending(null)}>Undo</button>
        </p>
      )}
    </section>
  )
}

/** A chargeback on a case closed as safe or fraud: the issuer's word comes later, and it is the strongest label. */
function Chargeback (props: { c: CaseDetail, session: Session, onDone: () => void }) {
  const [reason, setReason] = useState('')
  const [error, setError] = useState<ApiErrorBody | null>(null)
  const submit = async (e: Event) => {
    e.preventDefault()
    const res = await api('POST', `/v1/cases/${encodeURIComponent(props.c.id)}/disposition`, { outcome: 'chargeback', analyst: props.session.user.email, ...(reason.trim() === '' ? {} : { reason: reason.trim() }) })
    if (res.ok) props.onDone(); else setError(res.error)
  }
  return (
    <section aria-labelledby='chargeback-title'>
      <h2 id='chargeback-title'>Chargeback</h2>
      <form onSubmit={submit} class='inline'>
        <label>Issuer's notice or reason <input value={reason} maxLength={1000} onInput={e => setReason((e.target as HTMLInputElement).value)} /></label>
        <button type='submit'>Record a chargeback</button>
      </form>
      {error !== null && <p class='error' role='alert'>{error.message}</p>}
    </section>
  )
}

function Notes (props: { c: CaseDetail, mayWrite: boolean, onAdded: (c: CaseDetail) => void }) {
  const [body, setBody] = useState('')
  const [error, setError] = useState<ApiErrorBody | null>(null)
  const add = async (e: Event) => {
    e.preventDefault()
    if (body.trim() === '') { setError({ type: 'invalid_request_error', code: 'parameter_missing', message: 'Write the note first.', param: 'body' }); return }
    const res = await api<CaseDetail>('POST', `/v1/cases/${encodeURIComponent(props.c.id)}/notes`, { body: body.trim() })
    if (!res.ok) { setError(res.error); return }
    setError(null); setBody(''); props.onAdded(res.data)
  }
  return (
    <section aria-labelledby='notes-title'>
      <h2 id='notes-title'>Notes</h2>
      {props.c.notes.length === 0 ? <p>No notes yet.</p> : (
        <ul class='notes' data-testid='case-notes'>{props.c.notes.map(n => <li key={n.id}><p class='note-body'>{n.body}</p><p class='note-by'>{n.author_name ?? n.author}, {when(n.created)}</p></li>)}</ul>
      )}
      {props.mayWrite && (
        <form onSubmit={add}>
          <div class='field'>
            <label for='f-note'>New note</label>
            <textarea id='f-note' maxLength={2000} value={body} onInput={e => setBody((e.target as HTMLTextAreaElement).value)} aria-invalid={error !== null} aria-describedby={error !== null ? 'note-error' : undefined} />
            {error !== null && <p id='note-error' class='error' role='alert'>{error.message}</p>}
          </div>
          <button type='submit'>Add note</button>
        </form>
      )}
    </section>
  )
}
