import { CASE_OUTCOMES } from '../../domain/cases/types.js'
import { SUBJECTS } from '../../domain/decision/subjects.js'
import { define, listOf, ref } from './named.js'
import { livemode, object, oneOf, shape, str, strings, time } from './fields.js'

const subjects = { type: 'object', additionalProperties: false, properties: Object.fromEntries(SUBJECTS.map(s => [s, str()])), description: 'Who the case is about.' }
const outcome = { type: ['string', 'null'], enum: [...CASE_OUTCOMES, null], description: 'Set when the case is closed.' }

export const CaseHistoryEntry = define('CaseHistoryEntry', {
  description: 'One accepted change of a case: opened, assigned, or dispositioned (with its outcome).',
  ...shape({
  type: oneOf(['opened', 'assigned', 'dispositioned']),
  at: time(),
  actor: str('Who made the change: an API key\u2019s id, a dashboard user, or the rule topology.'),
  assignee: str(),
  outcome: oneOf(CASE_OUTCOMES),
  reason: str(),
  analyst: str(),
  demote_until: time('A `safe` outcome: later flags of the case\u2019s subjects are approved until then.')
}, ['assignee', 'outcome', 'reason', 'analyst', 'demote_until'])
})

export const Case = define('Case', {
  description: 'A case of the review queue: opened for a flagged decision or by an analyst, assigned, closed with an outcome.',
  type: 'object',
  required: ['object', 'id', 'livemode', 'trace_id', 'status', 'outcome', 'assignee', 'reason', 'opened_by', 'rules', 'score', 'subjects', 'created', 'updated'],
  properties: {
    object: object('case'),
    id: str(),
    livemode,
    trace_id: { type: ['string', 'null'], description: 'The decision the case is about, if any.' },
    status: oneOf(['open', 'in_review', 'closed']),
    outcome,
    assignee: { type: ['string', 'null'] },
    reason: str(),
    opened_by: oneOf(['rule', 'analyst']),
    rules: strings('The enforced rules that matched the flagged decision.'),
    score: { type: ['number', 'null'], description: 'The decision\u2019s score.' },
    subjects,
    created: time(),
    updated: time(),
    history: { type: 'array', items: ref(CaseHistoryEntry), description: 'Every accepted change, oldest first (not in lists).' }
  }
})

export const CaseList = listOf(Case)
