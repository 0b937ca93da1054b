import { Ajv } from 'ajv'
import addFormatsModule from 'ajv-formats'
import type { ScoreRequest } from '../domain/decision/types.js'
import { ApiError } from './errors.js'
import { eventSizeError, freeFormError, plainJsonError } from './input-limits.js'
import { NAMED_FIELDS, scoreRequestSchema } from './score-schema.js'
import { AJV_OPTIONS, validationError } from './validation.js'

/** Score requests as REST (single and batch) and gRPC receive them: validation, mapping, event time. */

/** Splits a validated body into the named fields and the client's custom keys (kept, never dropped). */
export function toScoreRequest (body: Record<string, unknown>): ScoreRequest {
  const request: Record<string, unknown> = {}
  let custom: Record<string, unknown> | undefined
  for (const [key, value] of Object.entries(body)) {
    if (NAMED_FIELDS.has(key)) request[key] = value
    else (custom ??= {})[key] = value
  }
  if (custom !== undefined) request.custom = custom
  return request as unknown as ScoreRequest
}

/** At most this many events per POST /v1/score/batch; more is 400 batch_too_large. */
export const BATCH_MAX = 500

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv
/** Validates a score request outside fastify (batch events, gRPC) exactly as POST /v1/score validates its body. */
const validateEvent = (() => {
  const ajv = addFormats(new Ajv({ ...AJV_OPTIONS, useDefaults: true }))
  return ajv.compile(scoreRequestSchema)
})()

const isObject = (body: unknown): body is Record<string, unknown> => body !== null && typeof body === 'object' && !Array.isArray(body)

/**
 * The free-form limits of input-limits.ts, checked before the schema (which states them too) so that their
 * errors are input-limits.ts's: the limit in words and the param named as it names paths.
 */
export const freeFormLimitsError = (body: unknown) => isObject(body) ? freeFormError(body, NAMED_FIELDS) : undefined

/**
 * The validation error of one event of a JSON batch (whose strings and numbers the JSON parser checked with
 * plainJsonError already), or undefined when it is valid, in POST /v1/score's order: the free-form limits,
 * the schema, then the size.
 */
export function batchEventError (body: unknown): ApiError | undefined {
  const limits = freeFormLimitsError(body)
  if (limits !== undefined) return limits
  if (!validateEvent(body)) return validationError(validateEvent.errors as never)
  return eventSizeError(body, undefined)
}

/** The validation error of a score request that passed no JSON parser (gRPC): plainJsonError first, then as a batch event. */
export function scoreRequestError (body: unknown): ApiError | undefined {
  return plainJsonError(body) ?? batchEventError(body)
}

/** Event times may lie in the past (replays) but not more than this ahead of the server clock. */
const MAX_CLOCK_SKEW_MS = 5 * 60_000

/** The decision's time: the request's event_time when given (replays of history), else now. */
export function eventTimeMs (request: ScoreRequest, nowMs: number, param = 'event_time'): number {
  if (request.event_time === undefined) return nowMs
  const ms = request.event_time * 1000
  if (ms > nowMs + MAX_CLOCK_SKEW_MS) throw new ApiError('parameter_invalid', "'event_time' lies in the future.", param)
  return ms
}
