import { LIMITS } from './input-limits.js'

/**
 * JSON Schema of the score request (validated by fastify's Ajv). Only `event` is required; keys not named
 * here are accepted and kept. Bounds chosen where docs/spec.md is silent are documented in docs/scoring.md and docs/limits.md.
 *
 * The free-form parts (geo, metadata and the request's own keys) carry the LIMITS of input-limits.ts that a
 * schema states without blowing up: keys of 1 to 128 characters, strings of at most 8192 characters, arrays of
 * at most 100 items, in one recursive $defs FreeForm. The depth (5 levels) is in its description only: a chain
 * of FreeForm5 ... FreeForm0 states it, but generators that unfold every $ref (schemathesis's coverage phase)
 * take minutes and gigabytes on it. The depth and the total of 1000 keys are input-limits.ts's (freeFormError),
 * which stays the runtime authority, runs before the schema, and names the param of a value over any limit.
 */
const id = { type: 'string', minLength: 1, maxLength: 256 } as const

const keyNames = { minLength: 1, maxLength: LIMITS.keyLength } as const
const freeFormRef = { $ref: '#/$defs/FreeForm' } as const

/** A free-form value: any JSON value within the LIMITS above (its depth and the total of keys are input-limits.ts's). */
const freeForm = {
  description: `A free-form JSON value: keys of 1 to ${LIMITS.keyLength} characters, strings of at most ${LIMITS.stringLength}, arrays of at most ${LIMITS.arrayItems} items, at most ${LIMITS.freeFormDepth} levels of objects and arrays, at most ${LIMITS.totalKeys} keys in the whole request (these two are checked, not stated by this schema).`,
  type: ['string', 'number', 'integer', 'boolean', 'null', 'array', 'object'],
  maxLength: LIMITS.stringLength,
  maxItems: LIMITS.arrayItems,
  items: freeFormRef,
  propertyNames: keyNames,
  additionalProperties: freeFormRef
} as const

/** geo and metadata: objects of free-form values. */
const freeFormObject = (maxProperties: number) => ({ type: 'object', maxProperties, propertyNames: keyNames, additionalProperties: freeFormRef }) as const

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
    ip: { type: 'string', anyOf: [{ type: 'string', format: 'ipv4' }, { type: 'string', format: 'ipv6' }] },
    email: { type: 'string', maxLength: 320, format: 'email' },
    geo: freeFormObject(20),
    metadata: freeFormObject(50),
    /** When the event happened (unix seconds), for replays of history; default: when the request arrives. */
    event_time: { type: 'integer', minimum: 946684800, maximum: 4102444800 }
  },
  // The client's own keys: kept as given (on the transaction's `custom`), each a free-form value.
  propertyNames: keyNames,
  additionalProperties: freeFormRef,
  $defs: { FreeForm: freeForm }
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
    override_gate: { type: 'string' },
    counterfactual: {
      type: ['object', 'null'],
      description: 'On flag and reject: the smallest change of an actionable input (the amount) that would have made the decision approve; null when none would.',
      required: ['action', 'changes'],
      properties: {
        action: { type: 'string', enum: ['approve'] },
        changes: {
          type: 'array',
          items: { type: 'object', required: ['field', 'from', 'to'], properties: { field: { type: 'string', enum: ['amount'] }, from: { type: 'number' }, to: { type: 'number' } } }
        }
      }
    }
  }
} as const

export const NAMED_FIELDS = new Set(Object.keys(scoreRequestSchema.properties))
