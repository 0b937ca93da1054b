import { Ajv } from 'ajv'
import addFormatsModule from 'ajv-formats'
import type { FastifyInstance } from 'fastify'
import { newId } from '../../domain/ids.js'
import { AJV_OPTIONS, validationError } from '../error-handler.js'
import { ApiError, errorSchema } from '../errors.js'
import { eventSizeError, freeFormError, plainJsonError } from '../input-limits.js'
import type { ScoreRequest } from '../../domain/decision/types.js'
import type { ScoreCall, ScoringService } from '../../services/scoring-service.js'
import { decisionSchema, NAMED_FIELDS, scoreRequestSchema } from '../score-schema.js'

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
const freeFormLimitsError = (body: unknown) => isObject(body) ? freeFormError(body, NAMED_FIELDS) : undefined

/**
 * The validation error of a score request that did not come through POST /v1/score's own checks (batch
 * events, gRPC), or undefined when it is valid, in POST /v1/score's order: input-limits.ts (strings, numbers,
 * the free-form parts), the schema, then the size.
 */
export function scoreRequestError (body: unknown): ApiError | undefined {
  const limits = plainJsonError(body) ?? freeFormLimitsError(body)
  if (limits !== undefined) return limits
  if (!validateEvent(body)) return validationError(validateEvent.errors as never)
  return eventSizeError(body, undefined)
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

export function scoreRoutes (app: FastifyInstance, service: ScoringService, clock: () => number): void {
  app.post('/v1/score', {
    config: { scope: 'score:write' },
    bodyLimit: 64 * 1024,
    schema: {
      body: scoreRequestSchema,
      response: { 200: decisionSchema, '4xx': errorSchema, '5xx': errorSchema }
    },
    // The body passed plainJsonError in the parser; the free-form limits come next, then the schema.
    preValidation: async request => {
      const invalid = freeFormLimitsError(request.body)
      if (invalid !== undefined) throw invalid
    }
  }, async request => {
    const principal = request.caller
    const scoreRequest = toScoreRequest(request.body as Record<string, unknown>)
    return service.score({
      scope: request.scope,
      traceId: request.id,
      request: scoreRequest,
      nowMs: eventTimeMs(scoreRequest, clock()),
      startedAt: request.startedAt
    })
  })
}

/** A batch event's error as the batch answers it, its param prefixed with the event's place. */
function eventError (e: ApiError, i: number) {
  const param = e.param === undefined ? `events.${i}` : e.param.startsWith('events.') ? e.param : `events.${i}.${e.param}`
  return { error: { type: e.type, code: e.code, message: e.message, param } }
}

/**
 * POST /v1/score/batch {events: [...]}: up to 500 score requests, answered as {object: "list", data} in the same
 * order; each item is a decision, or {error: {type, code, message, param}} for an event that failed validation
 * (param prefixed "events.<index>."). Every event is validated before any is decided; the valid ones are then
 * decided in order and recorded in ONE durable write, so a batch that fails is recorded not at all.
 */
export function batchRoutes (app: FastifyInstance, service: ScoringService, clock: () => number): void {
  app.post<{ Body: { events: unknown[] } }>('/v1/score/batch', {
    config: { scope: 'score:write' },
    bodyLimit: 8 * 1024 * 1024,
    // The bounds are in the schema (so the document states them); their errors keep their own codes, below.
    attachValidation: true,
    schema: { body: { type: 'object', additionalProperties: false, required: ['events'], properties: { events: { type: 'array', minItems: 1, maxItems: BATCH_MAX } } } }
  }, async request => {
    if (request.validationError !== undefined) {
      const errors = request.validationError.validation as Array<{ keyword: string, instancePath: string }>
      const bound = errors[0]!.instancePath === '/events' ? errors[0]!.keyword : undefined
      if (bound === 'maxItems') throw new ApiError('batch_too_large', `A batch holds at most ${BATCH_MAX} events; got ${request.body.events.length}.`, 'events')
      if (bound === 'minItems') throw new ApiError('parameter_invalid', 'A batch needs at least one event.', 'events')
      throw validationError(errors as never)
    }
    const { events } = request.body
    const scope = request.scope
    const nowMs = clock()
    const data: unknown[] = []
    const calls: ScoreCall[] = []
    const places: number[] = []
    events.forEach((event, i) => {
      try {
        const invalid = scoreRequestError(event)
        if (invalid !== undefined) throw invalid
        const scoreRequest = toScoreRequest(event as Record<string, unknown>)
        const at = eventTimeMs(scoreRequest, nowMs, `events.${i}.event_time`)
        calls.push({ scope, traceId: newId('trc', nowMs), request: scoreRequest, nowMs: at, startedAt: request.startedAt })
        places.push(i)
      } catch (err) {
        if (!(err instanceof ApiError)) throw err
        data[i] = eventError(err, i)
      }
    })
    const decisions = await service.scoreAll(calls)
    decisions.forEach((d, k) => { data[places[k]!] = d })
    return { object: 'list', url: '/v1/score/batch', data }
  })
}
