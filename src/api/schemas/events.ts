import { CASE_OUTCOMES } from '../../domain/cases/types.js'
import { SUBJECTS } from '../../domain/decision/subjects.js'
import { define, ref, type Named, type Schema } from './named.js'
import { ACTIONS, livemode, num, oneOf, shape, str, strings, time } from './fields.js'
import { LinkAnalysis } from './decisions.js'

/** The envelope of every event a webhook endpoint receives, with `data` of its type. */
const event = (type: string, description: string, data: Schema): Named => define(`${type.split('.').map(w => w.split('_').map(p => p[0]!.toUpperCase() + p.slice(1)).join('')).join('')}Event`, {
  description,
  type: 'object',
  required: ['id', 'type', 'created', 'livemode', 'data'],
  properties: {
    id: str('evt_...: the same on every retry and replay of the event (de-duplicate by it).'),
    type: { type: 'string', const: type },
    created: time(),
    livemode,
    data
  }
})

const nullableString = { type: ['string', 'null'] }
const subjects = { type: 'object', additionalProperties: false, properties: Object.fromEntries(SUBJECTS.map(s => [s, str()])) }
const linkData = LinkAnalysis as { properties: Record<string, Schema>, required: string[] }

export const ScoreAsyncEvent = event('score.async', 'A deferred check of a decision reported (link analysis found accounts tied to it).',
  shape({ trace_id: str(), ...linkData.properties }))

export const CaseCreatedEvent = event('case.created', 'A case was opened, for a flagged decision or by an analyst.',
  shape({ case_id: str(), trace_id: nullableString, status: { type: 'string', const: 'open' }, opened_by: oneOf(['rule', 'analyst']), reason: str(), rules: strings(), subjects }))

export const CaseDispositionedEvent = event('case.dispositioned', 'A case was closed with an outcome.',
  shape({ case_id: str(), trace_id: nullableString, outcome: oneOf(CASE_OUTCOMES), reason: str(), analyst: str() }, ['reason', 'analyst']))

export const RuleTriggeredEvent = event('rule.triggered', 'A rule matched a decision (enforced or in shadow).',
  shape({ trace_id: str(), rule_id: str(), mode: oneOf(['enforce', 'shadow']), action: oneOf(ACTIONS), ruleset_version: str() }))

export const SignalUpdatedEvent = event('signal.updated', 'A signal changed: a SIM swap, or an IP reputation entry.',
  shape({
    signal_id: str(),
    type: oneOf(['sim_swap', 'ip_reputation']),
    livemode,
    observed_at: time(),
    source: str(),
    user_id: str(),
    confidence: num(),
    ip: str(),
    score: { type: ['number', 'null'] }
  }, ['user_id', 'confidence', 'ip', 'score']))

export const EVENTS = [ScoreAsyncEvent, CaseCreatedEvent, CaseDispositionedEvent, RuleTriggeredEvent, SignalUpdatedEvent]

/** Not `define`d: a union declares no properties of its own, so it must not refuse them. */
export const WebhookEvent: Named = { $id: 'WebhookEvent', description: 'Any event a webhook endpoint receives; `type` says which.', anyOf: EVENTS.map(ref) }
