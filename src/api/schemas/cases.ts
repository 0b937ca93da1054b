import { CASE_OUTCOMES } from '../../domain/cases/types.js'
import { SUBJECTS } from '../../domain/decision/subjects.js'
import { define, listOf, ref } from './named.js'
import { ACTIONS, int, livemode, num, object, oneOf, shape, str, strings, time } from './fields.js'
import { decisionSchema } from '../../services/score-schema.js'

const subjects = { type: 'object', additionalProperties: false, properties: Object.fromEntries(SUBJECTS.map(s => [s, str()])), description: 'Who the case is about.' }
const outcome = { type: ['string', 'null'], enum: [...CASE_OUTCOMES, null], description: 'Set when the case is closed.' }

const nullable = (schema: Record<string, unknown>) => ({ ...schema, type: [schema.type as string, 'null'] })

export const CaseHistoryEntry = define('CaseHistoryEntry', {
  description: 'One accepted change of a case: opened, assigned, a note, or dispositioned (with its outcome and reason).',
  ...shape({
  type: oneOf(['opened', 'assigned', 'noted', 'dispositioned']),
  at: time(),
  actor: str('Who made the change: an API key\u2019s id, a dashboard user, or the rule topology.'),
  actor_name: str('The actor\u2019s name, when it has one (a dashboard user).'),
  assignee: str(),
  outcome: oneOf(CASE_OUTCOMES),
  reason: str(),
  analyst: str(),
  body: str('A note\u2019s text.'),
  demote_until: time('A `safe` outcome: later flags of the case\u2019s subjects are approved until then.')
}, ['actor_name', 'assignee', 'outcome', 'reason', 'analyst', 'body', 'demote_until'])
})

export const CaseNote = define('CaseNote', {
  description: 'A note an analyst added to a case (POST /v1/cases/{id}/notes); it is in the case\u2019s history too.',
  ...shape({ id: str(), body: str(), author: str('The API key\u2019s id or dashboard user who wrote it.'), author_name: { type: ['string', 'null'] }, created: time() })
})

const location = shape({ country: nullable(str('ISO 3166 alpha-2, as the request\u2019s geo.country.')), city: nullable(str()), lat: nullable(num()), lon: nullable(num()) })

export const CaseTransaction = define('CaseTransaction', {
  description: 'The transaction a case is about, as it was scored: what an analyst triages.',
  ...shape({
    event: str(),
    amount: nullable(num()),
    currency: nullable(str()),
    merchant: nullable(str('custom.merchant_id (or terminal_id), or metadata.merchant_id.')),
    channel: nullable(str('custom.channel or metadata.channel.')),
    location: { ...location, type: ['object', 'null'] },
    action: oneOf(ACTIONS),
    risk_level: oneOf(['low', 'medium', 'high']),
    signals: { type: 'array', items: shape({ code: str(), description: str() }), description: 'What raised the score, strongest first, with what each means.' },
    shadow: { ...decisionSchema.properties.shadow, type: ['object', 'null'], description: 'What shadow rules would have done.' },
    counterfactual: decisionSchema.properties.counterfactual
  })
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
    transaction: { anyOf: [ref(CaseTransaction), { type: 'null' }], description: 'The transaction the case is about; null for a case opened on subjects only.' },
    created: time(),
    updated: time(),
    history: { type: 'array', items: ref(CaseHistoryEntry), description: 'Every accepted change, oldest first (not in lists).' },
    notes: { type: 'array', items: ref(CaseNote), description: 'The notes, oldest first (not in lists).' }
  }
})

export const CaseList = listOf(Case)

export const CaseSummary = define('CaseSummary', {
  description: 'The review queue at a glance: open and in-review counts and the age of the oldest.',
  ...shape({
    object: object('case_summary'),
    capped: { type: 'boolean', description: 'Whether more than 100,000 cases are open or in review: the figures are those of the oldest 100,000.' },
    open: int(),
    in_review: int(),
    oldest_unclosed_created: { type: ['integer', 'null'], description: 'When the oldest open or in-review case was opened (unix seconds).' },
    oldest_unclosed_age_seconds: { type: ['integer', 'null'] },
    assignees: { type: 'array', items: shape({ assignee: str(), in_review: int() }), description: 'Who has cases in review, the most first (at most 50).' },
    assigned_in_review: int('Cases in review assigned to the `assignee` asked about.')
  }, ['assigned_in_review'])
})

export const BulkDisposition = define('BulkDisposition', {
  description: 'The outcome of POST /v1/cases/dispositions: every case given, in order, disposed or with its error.',
  ...shape({
    object: object('bulk_disposition'),
    disposed: int(),
    failed: int(),
    data: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'disposed'],
        properties: { id: str(), disposed: { type: 'boolean' }, case: ref(Case), error: shape({ type: str(), code: str(), message: str() }) }
      }
    }
  })
})
