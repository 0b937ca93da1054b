import { define } from './named.js'
import { ACTIONS, bool, int, livemode, num, object, oneOf, shape, str, time } from './fields.js'

const ModelEvaluation = shape({ rows: int(), frauds: int(), champion_ap: num(), challenger_ap: num(), promoted: bool() }, [],
  { description: 'The last comparison of the champion and a challenger on matured labels (average precision).' })

const evaluation = { anyOf: [ModelEvaluation, { type: 'null' }] }

const actions = shape({ low: oneOf(ACTIONS), medium: oneOf(ACTIONS), high: oneOf(ACTIONS) }, [], { description: 'The action of each risk level.' })

export const RiskSettings = define('RiskSettings', {
  description: 'The score thresholds of the risk levels, each level\u2019s action, and the model that scores.',
  type: 'object',
  required: ['object', 'livemode', 'thresholds', 'actions', 'ruleset_version', 'model', 'challenger'],
  properties: {
    object: object('risk_settings'),
    livemode,
    thresholds: shape({ medium: num('A score at or above is medium.'), high: num('A score at or above is high.') }),
    actions,
    ruleset_version: str(),
    model: shape({
      version: str(),
      trained_labels: int(),
      trained_through: { type: ['integer', 'null'], description: 'Unix seconds.' },
      rolled_back: { anyOf: [shape({ from: str('The version rolled back from.'), reason: oneOf(['score_drift', 'quality']) }), { type: 'null' }], description: 'When the model in use was restored by a rollback.' }
    }),
    challenger: {
      anyOf: [shape({ version: str(), status: oneOf(['promoted', 'shadow', 'rejected']), trained_through: time(), evaluation }), { type: 'null' }]
    }
  }
})

const nullable = (schema: Record<string, unknown>) => ({ anyOf: [schema, { type: 'null' }] })
const unixOrNull = (description: string) => ({ type: ['integer', 'null'], description })

const Quality = shape({
  state: oneOf(['measured', 'no_matured_labels', 'challenger_in_shadow', 'too_few_frauds']),
  matured_labels: int('Matured decisions the serving model learned from.'),
  matured_through: unixOrNull('Event time of the latest decision learned from.'),
  challenger_trained_through: unixOrNull('While trees score in shadow: their training horizon.')
}, [], { description: 'Where measuring quality on matured labels stands: why it is not measured yet, when it is not.' })

const CaseBacklog = shape({
  capped: { type: 'boolean', description: 'Whether more than 100,000 cases are open or in review: the figures are those of the oldest 100,000.' },
  open: int(),
  in_review: int(),
  oldest_unclosed_created: unixOrNull('When the oldest open or in-review case was opened.'),
  oldest_unclosed_age_seconds: { type: ['integer', 'null'] }
}, [], { description: 'The open-case backlog (null without the cases:read scope).' })

const WebhookFailures = shape({
  endpoints: int(),
  failed_not_replayed: int('Dead-lettered deliveries not replayed yet.'),
  failed_last_24h: int('Of them, those created in the last 24 hours.'),
  capped: bool('The figures are floors: an endpoint had more than 1,000 dead letters, or the tenant more than 50 endpoints.'),
  troubled: {
    type: 'array',
    description: 'Endpoints whose newest deliveries all fail (failing) or partly fail (degraded), the worst first.',
    items: shape({ id: str(), url: str(), status: oneOf(['enabled', 'disabled']), health: oneOf(['failing', 'degraded']), failed: int(), retrying: int() })
  }
}, [], { description: 'Failed webhook deliveries (null without the webhooks:manage scope).' })

const RuleHits = shape({
  bucket_seconds: int('The length of one bucket.'),
  rules: { type: 'array', items: shape({ id: str(), hits: int(), buckets: { type: 'array', items: int(), description: 'Hits per bucket, oldest first.' } }), description: 'The rules with the most hits (at most 5).' }
}, [], { description: 'The top rules\u2019 hits over the window, in twelve buckets.' })

export const Overview = define('Overview', {
  description: 'Decisions per minute by action, the score histogram, latency, rule hits, the case backlog, failed webhook deliveries and consumer lag over the last minutes.',
  type: 'object',
  required: ['object', 'from', 'to', 'truncated', 'decisions', 'per_minute', 'score_histogram', 'latency_ms', 'rule_hits', 'model', 'cases', 'webhooks', 'lag'],
  properties: {
    object: object('overview'),
    from: time(),
    to: time(),
    truncated: bool(),
    decisions: int(),
    per_minute: { type: 'array', items: shape({ minute: time('The minute\u2019s start, unix seconds.'), approve: int(), flag: int(), reject: int() }) },
    score_histogram: { type: 'array', items: int(), description: 'Ten buckets of 0.1.' },
    latency_ms: shape({ p50: { type: ['number', 'null'] }, p99: { type: ['number', 'null'] } }),
    rule_hits: RuleHits,
    model: shape({ version: str(), trained_labels: int(), evaluation, quality: Quality }),
    cases: nullable(CaseBacklog),
    webhooks: nullable(WebhookFailures),
    lag: { type: 'object', additionalProperties: int(), description: 'Records each consumer group of the instance is behind.' }
  }
})
