import type { FastifyInstance } from 'fastify'
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
    return service.score({
      scope: { tenant: principal.tenant, mode: principal.mode },
      traceId: request.id,
      request: toScoreRequest(request.body as Record<string, unknown>),
      nowMs: clock(),
      startedAt: request.startedAt
    })
  })
}
