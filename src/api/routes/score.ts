import type { TenantDirectory } from '../../stores/tenants.js'
import { setImmediate as yieldTurn } from 'node:timers/promises'
import { traceparentOf } from '../../stream/tracing.js'
import { keysOver, LIMITS } from '../../services/input-limits.js'
import { rateLimitedError, type RateLimiter } from '../../services/rate-limit.js'
import { reportRateLimit } from '../rate-limit-headers.js'
import type { FastifyInstance } from 'fastify'
import { newId } from '../../domain/ids.js'
import { errorSchema } from '../errors.js'
import { ApiError } from '../../services/errors.js'
import { BATCH_MAX, batchEventError, eventTimeMs, freeFormLimitsError, toScoreRequest } from '../../services/score-requests.js'
import { validationError } from '../../services/validation.js'
import type { ScoreCall, ScoringService } from '../../services/scoring-service.js'
import { scoreRequestSchema } from '../../services/score-schema.js'
import { ref } from '../schemas/named.js'
import { Decision } from '../schemas/decisions.js'

export function scoreRoutes (app: FastifyInstance, service: ScoringService, clock: () => number): void {
  app.post('/v1/score', {
    config: { scope: 'score:write' },
    bodyLimit: 64 * 1024,
    schema: {
      body: scoreRequestSchema,
      response: { 200: ref(Decision), '4xx': errorSchema, '5xx': errorSchema }
    },
    // The body passed plainJsonError in the parser; the free-form limits come next, then the schema.
    preValidation: async request => {
      const invalid = freeFormLimitsError(request.body)
      if (invalid !== undefined) throw invalid
    }
  }, async request => {
    const scoreRequest = toScoreRequest(request.body as Record<string, unknown>)
    return service.score({
      scope: request.scope,
      traceId: request.id,
      request: scoreRequest,
      nowMs: eventTimeMs(scoreRequest, clock()),
      startedAt: request.startedAt,
      traceparent: traceparentOf(request.span)
    })
  })
}

/** Events of a batch validated in one turn of the event loop. */
const VALIDATION_SLICE = 50

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
export function batchRoutes (app: FastifyInstance, service: ScoringService, clock: () => number, limiter: RateLimiter, tenants: TenantDirectory): void {
  app.post<{ Body: { events: unknown[] } }>('/v1/score/batch', {
    config: { scope: 'score:write' },
    bodyLimit: LIMITS.batchBytes,
    // The bounds are in the schema (so the document states them); their errors keep their own codes, below.
    attachValidation: true,
    schema: { body: { type: 'object', additionalProperties: false, required: ['events'], properties: { events: { type: 'array', minItems: 1, maxItems: BATCH_MAX } } } }
  }, async (request, reply) => {
    if (request.validationError !== undefined) {
      const errors = request.validationError.validation as Array<{ keyword: string, instancePath: string }>
      const bound = errors[0]!.instancePath === '/events' ? errors[0]!.keyword : undefined
      if (bound === 'maxItems') throw new ApiError('batch_too_large', `A batch holds at most ${BATCH_MAX} events; got ${request.body.events.length}.`, 'events')
      if (bound === 'minItems') throw new ApiError('parameter_invalid', 'A batch needs at least one event.', 'events')
      throw validationError(errors as never)
    }
    const { events } = request.body
    const most = tenants.quotaOf(request.caller.tenant, 'batch_size', BATCH_MAX)
    if (events.length > most) throw new ApiError('batch_too_large', `A batch of this account holds at most ${most} events; got ${events.length}.`, 'events')
    if (keysOver(events, LIMITS.batchKeys)) throw new ApiError('batch_too_large', `A batch holds at most ${LIMITS.batchKeys} keys in all its events, at every level.`, 'events')
    // The request took one token of the key's bucket; each further event takes one more.
    if (events.length > 1) {
      const limit = limiter.takeFor(request.caller, clock(), events.length - 1, tenants)
      reportRateLimit(reply, limit)
      if (!limit.allowed) throw rateLimitedError(limit, 'events')
    }
    const scope = request.scope
    const nowMs = clock()
    const data: unknown[] = []
    const calls: ScoreCall[] = []
    const places: number[] = []
    for (let i = 0; i < events.length; i++) {
      // Other requests are served between slices of the validation (each event is decided after a read anyway).
      if (i > 0 && i % VALIDATION_SLICE === 0) await yieldTurn()
      const event = events[i]
      try {
        const invalid = batchEventError(event)
        if (invalid !== undefined) throw invalid
        const scoreRequest = toScoreRequest(event as Record<string, unknown>)
        const at = eventTimeMs(scoreRequest, nowMs, `events.${i}.event_time`)
        calls.push({ scope, traceId: newId('trc', nowMs), request: scoreRequest, nowMs: at, startedAt: request.startedAt, traceparent: traceparentOf(request.span) })
        places.push(i)
      } catch (err) {
        if (!(err instanceof ApiError)) throw err
        data[i] = eventError(err, i)
      }
    }
    const decisions = await service.scoreAll(calls)
    decisions.forEach((d, k) => { data[places[k]!] = d })
    return { object: 'list', url: '/v1/score/batch', data }
  })
}
