import { Ajv } from 'ajv'
import { principalScope } from '../auth.js'
import addFormatsModule from 'ajv-formats'
import type { FastifyInstance } from 'fastify'
import { newId } from '../../ids.js'
import { AJV_OPTIONS, validationError } from '../error-handler.js'
import { ApiError } from '../errors.js'
import type { ScoreRequest } from '../../decision/types.js'
import type { ScoringService } from '../../scoring-service.js'
import { errorSchema } from '../errors.js'
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

/** The validation error of a score request body, or undefined when it is valid. */
export function scoreRequestError (body: unknown): ApiError | undefined {
  return validateEvent(body) ? undefined : validationError(validateEvent.errors as never)
}

/** Event times may lie in the past (replays) but not more than this ahead of the server clock. */
const MAX_CLOCK_SKEW_MS = 5 * 60_000

/** The decision's time: the request's event_time when given (replays of history), else now. */
export function eventTimeMs (request: ScoreRequest, nowMs: number, param = 'event_time'): number {
  if (request.event_time === undefined) return nowMs
  const ms = request.event_time * 1000
  if (ms > nowMs + MAX_CLOCK_SKEW_MS) throw new ApiError(400, 'invalid_request_error', 'parameter_invalid', "'event_time' lies in the future.", param)
  return ms
}

export function scoreRoutes (app: FastifyInstance, service: ScoringService, clock: () => number): void {
  app.post('/v1/score', {
    config: { scope: 'score:write' },
    bodyLimit: 64 * 1024,
    schema: {
      body: scoreRequestSchema,
      response: { 200: decisionSchema, '4xx': errorSchema, '5xx': errorSchema }
    }
  }, async request => {
    const principal = request.principal!
    const scoreRequest = toScoreRequest(request.body as Record<string, unknown>)
    return service.score({
      scope: principalScope(principal),
      traceId: request.id,
      request: scoreRequest,
      nowMs: eventTimeMs(scoreRequest, clock()),
      startedAt: request.startedAt
    })
  })
}

/**
 * POST /v1/score/batch {events: [...]}: up to 500 score requests, answered as {object: "list", data} in the same
 * order; each item is a decision, or {error: {type, code, message, param}} for an event that failed validation
 * (param prefixed "events.<index>."). Valid events are decided and recorded even when others fail.
 */
export function batchRoutes (app: FastifyInstance, service: ScoringService, clock: () => number): void {
  app.post<{ Body: { events: unknown[] } }>('/v1/score/batch', {
    config: { scope: 'score:write' },
    bodyLimit: 8 * 1024 * 1024,
    schema: { body: { type: 'object', additionalProperties: false, required: ['events'], properties: { events: { type: 'array' } } } }
  }, async request => {
    const { events } = request.body
    if (events.length > BATCH_MAX) throw new ApiError(400, 'invalid_request_error', 'batch_too_large', `A batch holds at most ${BATCH_MAX} events; got ${events.length}.`, 'events')
    if (events.length === 0) throw new ApiError(400, 'invalid_request_error', 'parameter_invalid', 'A batch needs at least one event.', 'events')
    const p = request.principal!
    const nowMs = clock()
    const data = await Promise.all(events.map(async (event, i) => {
      const e = scoreRequestError(event)
      if (e !== undefined) {
        const param = e.param === undefined ? `events.${i}` : `events.${i}.${e.param}`
        return { error: { type: e.type, code: e.code, message: e.message, param } }
      }
      const scoreRequest = toScoreRequest(event as unknown as Record<string, unknown>)
      let at: number
      try {
        at = eventTimeMs(scoreRequest, nowMs, `events.${i}.event_time`)
      } catch (err) {
        const e = err as ApiError
        return { error: { type: e.type, code: e.code, message: e.message, param: e.param } }
      }
      return service.score({ scope: principalScope(p), traceId: newId('trc', nowMs), request: scoreRequest, nowMs: at, startedAt: request.startedAt })
    }))
    return { object: 'list', url: '/v1/score/batch', data }
  })
}
