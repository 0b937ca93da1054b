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

export const Overview = define('Overview', {
  description: 'Decisions per minute by action, the score histogram, latency and consumer lag over the last minutes.',
  type: 'object',
  required: ['object', 'from', 'to', 'truncated', 'decisions', 'per_minute', 'score_histogram', 'latency_ms', 'model', 'lag'],
  properties: {
    object: object('overview'),
    from: time(),
    to: time(),
    truncated: bool(),
    decisions: int(),
    per_minute: { type: 'array', items: shape({ minute: time('The minute\u2019s start, unix seconds.'), approve: int(), flag: int(), reject: int() }) },
    score_histogram: { type: 'array', items: int(), description: 'Ten buckets of 0.1.' },
    latency_ms: shape({ p50: { type: ['number', 'null'] }, p99: { type: ['number', 'null'] } }),
    model: shape({ version: str(), trained_labels: int(), evaluation }),
    lag: { type: 'object', additionalProperties: int(), description: 'Records each consumer group of the instance is behind.' }
  }
})
