import type { Case, CaseEntry } from './types.js'
import { stableEventId, type ServiceEvent } from '../records/events.js'
import type { FeedbackLabel } from '../records/feedback.js'

export interface CaseEffects {
  events: ServiceEvent[]
  label: FeedbackLabel | undefined
  /** Deny-list aliases and the values to add (fraud and chargeback outcomes). */
  denyListItems: Array<[alias: string, value: string]>
}

const DENY_LISTS = [['user_id', 'deny_users'], ['email', 'deny_emails'], ['device_id', 'deny_devices'], ['card', 'deny_cards']] as const

/**
 * What an accepted transition causes outside the case, derived from the case and the transition only, so a
 * writer that replays a command after a crash produces the same events (same ids) and the same labels.
 */
export function caseEffects (c: Case, entry: CaseEntry): CaseEffects {
  const event = (type: ServiceEvent['type'], data: Record<string, unknown>): ServiceEvent =>
    ({ id: stableEventId(type, entry.command_id), type, created: Math.floor(entry.at_ms / 1000), livemode: c.mode === 'live', data })
  if (entry.type === 'opened') {
    return {
      events: [event('case.created', { case_id: c.id, trace_id: c.trace_id, status: 'open', opened_by: c.opened_by, reason: entry.reason, rules: c.rules, subjects: c.subjects })],
      label: undefined,
      denyListItems: []
    }
  }
  if (entry.type !== 'dispositioned') return { events: [], label: undefined, denyListItems: [] }
  const outcome = entry.outcome!
  const fraudulent = outcome !== 'safe'
  return {
    events: [event('case.dispositioned', { case_id: c.id, trace_id: c.trace_id, outcome, reason: entry.reason, analyst: entry.analyst })],
    label: c.trace_id === null
      ? undefined
      : { tenant_id: c.tenant_id, livemode: c.mode === 'live', trace_id: c.trace_id, case_id: c.id, outcome, label: fraudulent ? 1 : 0, labeled_at_ms: entry.at_ms },
    denyListItems: fraudulent ? DENY_LISTS.flatMap(([subject, alias]) => c.subjects[subject] === undefined ? [] : [[alias, c.subjects[subject]!] as [string, string]]) : []
  }
}
