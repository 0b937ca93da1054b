import { useState } from 'preact/hooks'
import { api, type ApiErrorBody, type Session } from '../api.js'

export interface BulkResult { disposed: number, failed: number, data: Array<{ id: string, disposed: boolean, error?: { message: string } }> }

/**
 * One outcome for the cases chosen, in one call (POST /v1/cases/dispositions): each case is closed on its own,
 * so the answer says which were closed and why the others were not. A reason is required; the button names
 * how many cases it closes and as what, which is the confirmation.
 */
export function BulkDispose (props: { ids: string[], session: Session, onDone: (result: BulkResult) => void, label: string }) {
  const [outcome, setOutcome] = useState('')
  const [reason, setReason] = useState('')
  const [error, setError] = useState<ApiErrorBody | null>(null)
  const [busy, setBusy] = useState(false)
  const submit = async (e: Event) => {
    e.preventDefault()
    if (outcome === '') { setError({ type: 'invalid_request_error', code: 'parameter_missing', message: 'Choose an outcome.', param: 'outcome' }); return }
    if (reason.trim() === '') { setError({ type: 'invalid_request_error', code: 'parameter_missing', message: 'Give a reason: it goes to every case\u2019s trail.', param: 'reason' }); return }
    setBusy(true)
    const res = await api<BulkResult>('POST', '/v1/cases/dispositions', { case_ids: props.ids, outcome, analyst: props.session.user.email, reason: reason.trim() })
    setBusy(false)
    if (!res.ok) { setError(res.error); return }
    setError(null); setReason('')
    props.onDone(res.data)
  }
  const n = props.ids.length
  return (
    <form class='bulk' onSubmit={submit} aria-label={props.label}>
      <label>Outcome for {n} {n === 1 ? 'case' : 'cases'} <select value={outcome} onChange={e => setOutcome((e.target as HTMLSelectElement).value)} aria-invalid={error?.param === 'outcome'}>
        <option value=''>Choose…</option><option value='fraud'>fraud</option><option value='safe'>safe</option>
      </select></label>
      <label>Reason <input value={reason} maxLength={1000} onInput={e => setReason((e.target as HTMLInputElement).value)} aria-invalid={error?.param === 'reason'} /></label>
      <button type='submit' disabled={busy || n === 0}>{outcome === '' ? `Close ${n} selected` : `Close ${n} as ${outcome}`}</button>
      {error !== null && <p class='error' role='alert'>{error.message}</p>}
    </form>
  )
}

/** What a bulk disposition did, in one sentence: how many closed, and each refusal with its reason. */
export function BulkOutcome (props: { result: BulkResult }) {
  const r = props.result
  return (
    <p role='status' data-testid='bulk-result'>
      {r.disposed} closed{r.failed > 0 && `; ${r.failed} not: ${r.data.filter(x => !x.disposed).map(x => `${x.id} (${x.error?.message ?? 'refused'})`).join('; ')}`}.
    </p>
  )
}
