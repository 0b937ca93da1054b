import { decisionSchema } from '../../services/score-schema.js'
import { define, listOf, ref, type Named } from './named.js'
import { ACTIONS, int, livemode, num, object, oneOf, shape, str, time } from './fields.js'

export const Decision = define('Decision', { description: 'The answer to a score request.', ...decisionSchema })

/** A `score.async` report of link analysis (the deferred check of the async-scorer topology). */
export const LinkAnalysis = shape({
  check: { type: 'string', const: 'link_analysis' },
  score: num('0..1.'),
  linked_users: int('Other users sharing one of this event\u2019s identifiers.'),
  cluster_size: int('Users within two hops through shared identifiers, this one included.'),
  shared: shape({ device: int(), email: int(), card: int(), ip: int() }, [], { description: 'Other users sharing each kind of identifier.' }),
  patterns: { type: 'array', items: oneOf(['shared_device', 'shared_card', 'mule_ring', 'synthetic_identity']) }
})

export const Transaction: Named = define('Transaction', {
  description: 'A decision made: the decision as returned, the request it answered, and what it was evaluated with.',
  type: 'object',
  required: ['object', 'id', 'trace_id', 'livemode', 'created', 'event', 'request', 'decision', 'evaluation'],
  properties: {
    object: object('transaction'),
    id: str('The decision\u2019s trace id.'),
    trace_id: str(),
    livemode,
    created: time('The event time (the request\u2019s event_time, or its arrival), unix seconds.'),
    event: str('The request\u2019s event type.'),
    request: { type: 'object', additionalProperties: true, description: 'The score request as the service took it (its own keys kept).' },
    decision: ref(Decision),
    async_checks: {
      type: 'array',
      items: LinkAnalysis,
      description: 'The deferred checks reported for this decision so far (score.async events); GET /v1/transactions/{id} only.'
    },
    evaluation: shape({
      ruleset_version: str(),
      model_version: str(),
      base_action: oneOf(ACTIONS, 'The action before overrides and Stage 3 gates.'),
      override_gate: { type: ['string', 'null'], description: 'The override or gate that changed the action, if any.' },
      rule_errors: { type: 'array', items: shape({ id: str(), error: str() }) },
      rollout_buckets: { type: 'object', additionalProperties: num(), description: 'The subject\u2019s bucket (0 to 99.99) in each rollout pack: the pack ran for it when below the pack\u2019s percentage.' },
      features: { type: 'object', additionalProperties: num(), description: 'The numeric features the decision saw.' }
    })
  }
})

export const TransactionList = listOf(Transaction)

/** An event of a batch that failed validation, in the batch's answer at its place (the batch's trace id is the request's). */
const BatchEventError = shape({
  error: shape({ type: str(), code: str(), message: str(), param: str('Where: events.<index>, or events.<index>.<field>.') })
}, [], { description: 'The event failed validation; it was not decided.' })

export const BatchResult = define('BatchResult', {
  description: 'One item per event of the batch, in order: a decision, or the error of an event that failed validation.',
  type: 'object',
  required: ['object', 'url', 'data'],
  properties: {
    object: { type: 'string', const: 'list' },
    url: str(),
    data: { type: 'array', items: { anyOf: [ref(Decision), BatchEventError] } }
  }
})
