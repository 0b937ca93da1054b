import { define, type Schema } from './named.js'

const operatorOnly = 'Shown only to the operator\u2019s credential (METRICS_TOKEN).'
const lag: Schema = { type: 'object', description: `Records each consumer group is behind. ${operatorOnly}`, additionalProperties: { type: 'integer' } }

export const Health = define('Health', {
  description: 'Liveness: the instance serves; `degraded` while the relay or a consumer keeps failing.',
  type: 'object',
  required: ['status'],
  // The operator's whole report names the process's internals (consumer groups, failures, dead letters) and is not part of the contract.
  additionalProperties: true,
  properties: { status: { type: 'string', enum: ['ok', 'degraded'] } }
})

export const Readiness = define('Readiness', {
  description: 'Readiness: `ready` once the control-plane views caught up and no consumer lags past READY_MAX_LAG.',
  type: 'object',
  required: ['status'],
  properties: {
    status: { type: 'string', enum: ['ready', 'not_ready'] },
    reasons: { type: 'array', items: { type: 'string' }, description: `Why the instance is not ready. ${operatorOnly}` },
    lag
  }
})
