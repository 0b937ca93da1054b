/**
 * JSON Schema of the score request (validated by fastify's Ajv). Only `event` is required; keys not named
 * here are accepted and kept. Bounds chosen where SPEC.md is silent are documented in README.md.
 */
const id = { type: 'string', minLength: 1, maxLength: 256 } as const

export const scoreRequestSchema = {
  type: 'object',
  required: ['event'],
  maxProperties: 100,
  properties: {
    event: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9][A-Za-z0-9_.:-]*$' },
    amount: { type: 'number', minimum: 0, maximum: 1e12 },
    currency: { type: 'string', pattern: '^[A-Za-z]{3}$' },
    user_id: id,
    device_id: id,
    ip: { type: 'string', anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }] },
    email: { type: 'string', maxLength: 320, format: 'email' },
    geo: { type: 'object', maxProperties: 20 },
    metadata: { type: 'object', maxProperties: 50 },
    /** When the event happened (unix seconds), for replays of history; default: when the request arrives. */
    event_time: { type: 'integer', minimum: 946684800, maximum: 4102444800 }
  }
} as const

export const decisionSchema = {
  type: 'object',
  required: ['score', 'risk_level', 'action', 'signals', 'rules', 'trace_id', 'latency_ms'],
  properties: {
    score: { type: 'number' },
    risk_level: { type: 'string', enum: ['low', 'medium', 'high'] },
    action: { type: 'string', enum: ['approve', 'flag', 'reject'] },
    signals: { type: 'array', items: { type: 'string' } },
    rules: { type: 'array', items: { type: 'string' } },
    trace_id: { type: 'string' },
    latency_ms: { type: 'integer' },
    shadow: {
      type: 'object',
      required: ['action', 'rules'],
      properties: {
        action: { type: 'string', enum: ['approve', 'flag', 'reject'] },
        rules: { type: 'array', items: { type: 'string' } }
      }
    },
    override_gate: { type: 'string' }
  }
} as const

export const NAMED_FIELDS = new Set(Object.keys(scoreRequestSchema.properties))
