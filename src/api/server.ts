import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import type { Logger } from 'pino'
import { newId } from '../ids.js'
import type { ControlPlane } from '../pipeline/control-plane.js'
import type { ScoringService } from '../scoring-service.js'
import { lookupApiKey } from '../state/api-keys.js'
import type { StateDb } from '../state/state-db.js'
import { bearerSecret, principalFor, requireScope, type Principal } from './auth.js'
import { errorHandler, notFoundHandler } from './error-handler.js'
import { ruleRoutes } from './routes/rules.js'
import { scoreRoutes } from './routes/score.js'
import { transactionRoutes } from './routes/transactions.js'

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null
    startedAt: number
  }
  interface FastifyContextConfig {
    /** Scope the API key must hold; routes without one are public (health). */
    scope?: string
  }
}

export interface ServerDeps {
  state: StateDb
  service: ScoringService
  control: ControlPlane
  logger: Logger
  clock: () => number
  health: () => Record<string, unknown>
}

export function buildServer (deps: ServerDeps): FastifyInstance {
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => newId('trc'),
    bodyLimit: 1024 * 1024,
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } }
  })
  app.decorateRequest('principal', null)
  app.decorateRequest('startedAt', 0)
  app.setErrorHandler(errorHandler)
  app.setNotFoundHandler(notFoundHandler)
  // JSON only: other media types get 415 unsupported_media_type instead of being parsed as text.
  app.removeContentTypeParser('text/plain')

  app.addHook('onRequest', async (request, reply) => {
    request.startedAt = performance.now()
    void reply.header('x-trace-id', request.id)
    const scope = request.routeOptions.config.scope
    if (scope === undefined) return
    const secret = bearerSecret(request.headers.authorization, deps.clock())
    const principal = principalFor(await lookupApiKey(deps.state, secret))
    requireScope(principal, scope)
    request.principal = principal
  })

  app.get('/healthz', async () => ({ status: 'ok', ...deps.health() }))
  scoreRoutes(app, deps.service, deps.clock)
  transactionRoutes(app, deps.state)
  ruleRoutes(app, deps.state, deps.control, deps.clock)
  return app
}
