import { subjectValue } from './subjects.js'
import type { Action, CaseGate, Override, ScoreRequest } from './types.js'

export interface OverrideOutcome { action: Action, gate: string | null }

const unchanged = (action: Action): OverrideOutcome => ({ action, gate: null })

/**
 * Stage 3, override gates, pure. In order of authority:
 * 1. admin overrides: force the action for a subject until they expire; the newest matching one wins;
 * 2. case review outcomes of earlier cases about the same subject (the newest wins): `safe` demotes `flag`
 *    to `approve` until its demotion ends, `fraud` and `chargeback` promote anything to `reject`.
 * Only gates in force when the service recorded the decision count (`recordedMs`: its arrival, never the
 * request's event_time, so a backdated event is gated like any other). `gate` names the gate that changed the action.
 */
export function applyOverrides (request: ScoreRequest, action: Action, overrides: readonly Override[], caseGates: readonly CaseGate[], recordedMs: number): OverrideOutcome {
  let admin: Override | undefined
  for (const o of overrides) {
    if (o.created_ms > recordedMs || (o.expires_at_ms !== null && o.expires_at_ms <= recordedMs)) continue
    if (subjectValue(request, o.subject) !== o.value) continue
    if (admin === undefined || o.id > admin.id) admin = o
  }
  if (admin !== undefined) return admin.action === action ? unchanged(action) : { action: admin.action, gate: `admin_override:${admin.id}` }

  let review: CaseGate | undefined
  for (const g of caseGates) {
    if (g.at_ms > recordedMs || (g.until_ms !== null && g.until_ms <= recordedMs)) continue
    if (review === undefined || g.at_ms > review.at_ms) review = g
  }
  if (review === undefined) return unchanged(action)
  const gated: Action = review.outcome === 'safe' ? (action === 'flag' ? 'approve' : action) : 'reject'
  return gated === action ? unchanged(action) : { action: gated, gate: `case_review:${review.case_id}` }
}
