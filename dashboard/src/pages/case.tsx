import { useEffect, useRef, useState } from 'preact/hooks'
import { api, can, when, type ApiErrorBody, type Session } from '../api.js'
import { FormError, Page } from '../components/form.js'
import type { CaseSummary } from './queue.js'
import { DecisionTable, type Transaction as Decision } from './decisions.js'

interface CaseDetail extends CaseSummary { history: Array<{ type: string, at: number, actor: string, outcome?: string, reason?: string, assignee?: string }> }
interface AsyncCheck { check: string, score?: number, linked_users?: number, cluster_size?: number, shared?: Record<string, number>, patterns?: string[] }
interface Transaction { async_checks: AsyncCheck[], decision: { score: number, action: string, risk_level: string, signals: string[], rules: string[], shadow?: unknown }, evaluation: { features: Record<string, number>, ruleset_version: string, model_version: string } }
interface AuditEntry { id: string, created: number, actor: string, action: string }

const OUTCOMES = [['fraud', 'f'], ['safe', 's'], ['chargeback', 'c']] as const

/** One case: its decision, the features it was scored with, its audit trail, and the disposition form. */
export function CasePage (props: { id: string, session: Session, mode: string }) {
  const [c, setCase] = useState<CaseDetail | null>(null)
  const [tx, setTx] = useState<Transaction | null>(null)
  const [audit, setAudit] = useState<AuditEntry[]>([])
  const [recent, setRecent] = useState<Decision[] | null>(null)
  const [linked, setLinked] = useState<string[]>([])
  const [error, setError] = useState<ApiErrorBody | null>(null)
  const [outcome, setOutcome] = useState<string>('')
  const [reason, setReason] = useState('')
  const [formError, setFormError] = useState<ApiErrorBody | null>(null)
  const [version, setVersion] = useState(0)
  const reasonRef = useRef<HTMLTextAreaElement>(null)
  const mayDispose = can(props.session, 'cases:write')

  useEffect(() => {
    void (async () => {
      const res = await api<CaseDetail>('GET', `/v1/cases/${encodeURIComponent(props.id)}`)
      if (!res.ok) { setError(res.error); return }
      setCase(res.data)
      if (res.data.trace_id !== null) {
        const t = await api<Transaction>('GET', `/v1/transactions/${res.data.trace_id}`)
        if (t.ok) setTx(t.data)
      }
      const a = await api<{ data: AuditEntry[] }>('GET', `/v1/audit?object_id=${encodeURIComponent(props.id)}`)
      if (a.ok) setAudit(a.data.data)
      // The subject's recent decisions: by user, else by the first subject the case has.
      const subject = Object.entries(res.data.subjects)[0]
      if (subject !== undefined) {
        const r = await api<{ data: Decision[] }>('GET', `/v1/transactions?${new URLSearchParams({ [subject[0]]: subject[1], limit: '10' })}`)
        if (r.ok) setRecent(r.data.data)
      }
      // Accounts seen with the same device, email or card in recent decisions.
      const user = res.data.subjects.user_id
      const others = new Set<string>()
      for (const kind of ['device_id', 'email', 'card'] as const) {
        const value = res.data.subjects[kind]
        if (value === undefined) continue
        const r = await api<{ data: Decision[] }>('GET', `/v1/transactions?${new URLSearchParams({ [kind]: value, limit: '50' })}`)
        if (r.ok) for (const t of r.data.data) { const u = t.request.user_id; if (typeof u === 'string' && u !== user) others.add(`${u} (same ${kind.replace('_id', '')})`) }
      }
      setLinked([...others])
    })()
  }, [props.id, props.mode, version])

  // Keyboard: f, s or c picks the outcome and moves to the reason; Ctrl+Enter there submits.
  useEffect(() => {
    if (!mayDispose) return
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement
      if (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT' || e.ctrlKey || e.metaKey || e.altKey) return
      const picked = OUTCOMES.find(([, key]) => key === e.key)
      if (picked !== undefined) { e.preventDefault(); setOutcome(picked[0]); reasonRef.current?.focus() }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [mayDispose])

  const dispose = async (e?: Event) => {
    e?.preventDefault()
    if (outcome === '') { setFormError({ type: 'invalid_request_error', code: 'parameter_missing', message: 'Choose an outcome.', param: 'outcome' }); return }
    const res = await api('POST', `/v1/cases/${encodeURIComponent(props.id)}/disposition`, { outcome, analyst: props.session.user.email, ...(reason.trim() === '' ? {} : { reason: reason.trim() }) })
    if (res.ok) { setFormError(null); setVersion(v => v + 1) } else setFormError(res.error)
  }

  if (error !== null) return <Page title='Case'><p class='error' role='alert'>{error.message}</p></Page>
  if (c === null) return <Page title='Case'><p>Loading…</p></Page>
  return (
    <Page title={`Case ${c.id}`}>
      <dl class='facts'>
        <dt>Status</dt><dd data-testid='case-status'>{c.status}{c.outcome !== null ? ` (${c.outcome})` : ''}</dd>
        <dt>Opened</dt><dd>{when(c.created)}</dd>
        <dt>Reason</dt><dd>{c.reason}</dd>
        <dt>Assignee</dt><dd>{c.assignee ?? '—'}</dd>
        <dt>Subjects</dt><dd>{Object.entries(c.subjects).map(([k, v]) => `${k}: ${v}`).join(', ')}</dd>
      </dl>
      {tx !== null && (
        <section aria-labelledby='decision-title'>
          <h2 id='decision-title'>Decision</h2>
          <dl class='facts'>
            <dt>Score</dt><dd>{tx.decision.score.toFixed(3)} ({tx.decision.risk_level})</dd>
            <dt>Action</dt><dd>{tx.decision.action}</dd>
            <dt>Signals</dt><dd>{tx.decision.signals.join(', ') || '—'}</dd>
            <dt>Rules</dt><dd>{tx.decision.rules.join(', ') || '—'}</dd>
            <dt>Shadow</dt><dd>{tx.decision.shadow === undefined ? '—' : JSON.stringify(tx.decision.shadow)}</dd>
            <dt>Versions</dt><dd>ruleset {tx.evaluation.ruleset_version}, model {tx.evaluation.model_version}</dd>
          </dl>
          <details><summary>Features it was scored with</summary>
            <table><caption class='visually-hidden'>Features</caption><thead><tr><th scope='col'>Feature</th><th scope='col'>Value</th></tr></thead>
              <tbody>{Object.entries(tx.evaluation.features).map(([k, v]) => <tr key={k}><td>{k}</td><td>{v}</td></tr>)}</tbody>
            </table>
          </details>
        </section>
      )}
      {c.status !== 'closed' && mayDispose && (
        <section aria-labelledby='dispose-title'>
          <h2 id='dispose-title'>Disposition</h2>
          <form onSubmit={dispose} onKeyDown={e => { if (e.key === 'Enter' && e.ctrlKey) void dispose(e) }}>
            <fieldset aria-describedby={formError?.param === 'outcome' ? 'outcome-error' : undefined}>
              <legend>Outcome (keys f, s, c)</legend>
              {OUTCOMES.map(([o]) => (
                <label key={o} class='choice'><input type='radio' name='outcome' value={o} checked={outcome === o} onChange={() => setOutcome(o)} /> {o}</label>
              ))}
            </fieldset>
            {formError?.param === 'outcome' && <p id='outcome-error' class='error' role='alert'>{formError.message}</p>}
            <div class='field'>
              <label for='f-reason'>Reason</label>
              <textarea id='f-reason' ref={reasonRef} maxLength={1000} value={reason} onInput={e => setReason((e.target as HTMLTextAreaElement).value)} aria-invalid={formError?.param === 'reason'} />
              {formError?.param === 'reason' && <p class='error' role='alert'>{formError.message}</p>}
            </div>
            <FormError error={formError} fields={['outcome', 'reason']} />
            <button type='submit'>Dispose (Ctrl+Enter)</button>
          </form>
        </section>
      )}
      {tx !== null && (tx.async_checks.length > 0 || linked.length > 0) && (
        <section aria-labelledby='linked-title'>
          <h2 id='linked-title'>Linked accounts</h2>
          {tx.async_checks.map(c => (
            <p key={c.check} data-testid='async-check'>
              Deferred check {c.check} (score.async): {c.linked_users ?? 0} other accounts share an identifier, a cluster of {c.cluster_size ?? 1} within two hops
              {c.shared !== undefined && `; shared: ${Object.entries(c.shared).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(', ')}`}
              {c.patterns !== undefined && c.patterns.length > 0 && `; patterns: ${c.patterns.join(', ')}`}.
            </p>
          ))}
          {linked.length > 0 && <ul data-testid='linked-accounts'>{linked.map(l => <li key={l}>{l}</li>)}</ul>}
        </section>
      )}
      {recent !== null && recent.length > 0 && (
        <section aria-labelledby='recent-title'>
          <h2 id='recent-title'>The subject's recent decisions</h2>
          <DecisionTable rows={recent} caption='Recent decisions of the subject' />
        </section>
      )}
      <section aria-labelledby='history-title'>
        <h2 id='history-title'>Audit trail</h2>
        <ol class='history'>
          {audit.map(e => <li key={e.id}>{when(e.created)}: {e.action} by {e.actor}</li>)}
        </ol>
      </section>
    </Page>
  )
}
