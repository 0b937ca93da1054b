import { isUtf8 } from 'node:buffer'
import type https from 'node:https'
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify'
import fastifyCookie from '@fastify/cookie'
import { newId } from '../domain/ids.js'
import { sameBytes } from '../domain/same-bytes.js'
import { httpDuration } from '../stream/metrics.js'
import { contextOf, SpanKind, tracer } from '../stream/tracing.js'
import { SpanStatusCode, type Span } from '@opentelemetry/api'
import type { ScoringService } from '../services/scoring-service.js'
import type { Core } from '../services/core.js'
import { principalScope, requireActiveTenant, requireScope, type Principal } from '../services/auth.js'
import type { Scope } from '../domain/scope.js'
import { authenticate } from '../services/authenticate.js'
import type { DashboardAuth, SignedIn } from '../services/dashboard-auth.js'
import { SESSION_COOKIE, signedInOf } from './dashboard-session.js'
import { dashboardUserRoutes } from './routes/dashboard-users.js'
import { dashboardSessionRoutes } from './routes/dashboard-session.js'
import { clientErrorHandler, errorHandler, methodNotAllowed, notFoundHandler } from './error-handler.js'
import { AJV_OPTIONS } from '../services/validation.js'
import { routeValidators } from './validators.js'
import { addNamedSchemas } from './schemas/index.js'
import { declareResponses, documentPath } from './operations.js'
import { ref } from './schemas/named.js'
import { Health, Readiness } from './schemas/health.js'
import { rateLimitedError, RateLimiter } from '../services/rate-limit.js'
import { reportRateLimit } from './rate-limit-headers.js'
import { registerIdempotency } from './idempotency.js'
import { jsonDepthError, plainJsonError } from '../services/input-limits.js'
import { requireClientCertificate } from './mutual-tls.js'
import { ApiError } from '../services/errors.js'
import { guardConnections, serverTimeouts, type ConnectionBounds } from './connection-guard.js'
import { registerOpenApi } from './openapi.js'
import { mtlsRoutes } from './routes/mtls.js'
import { signalRoutes } from './routes/signals.js'
import { caseRoutes } from './routes/cases.js'
import { auditRoutes } from './routes/audit.js'
import { keyRoutes } from './routes/keys.js'
import { adminTenantRoutes } from './routes/admin-tenants.js'
import type { CellForwarder } from './cell-forwarding.js'
import { overrideRoutes } from './routes/overrides.js'
import { ruleRoutes } from './routes/rules.js'
import { rolloutRoutes } from './routes/rules/rollout.js'
import { backtestRoutes } from './routes/rules/backtest.js'
import { ruleInsightRoutes } from './routes/rules/insight.js'
import { overviewRoutes } from './routes/overview.js'
import { listRoutes } from './routes/lists.js'
import { riskSettingsRoutes } from './routes/risk-settings.js'
import { batchRoutes, scoreRoutes } from './routes/score.js'
import { transactionRoutes } from './routes/transactions.js'
import { webhookRoutes } from './routes/webhooks.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated key, or null on public routes (health, docs). */
    principal: Principal | null
    /** The authenticated key; on a route with a scope it is always there (onRequest refused the request otherwise). */
    readonly caller: Principal
    /** The tenant and mode the caller acts in: every store and topic the route touches is keyed by them. */
    readonly scope: Scope
    startedAt: number
    /** The request's OpenTelemetry span (a no-op span without a tracer provider); null before onRequest ran. */
    span: Span | null
    /** The dashboard session the request came with, when it authenticated with one instead of an API key. */
    signedIn: SignedIn | null
  }
  interface FastifyContextConfig {
    /** Scope the API key (or the dashboard user's role) must hold; routes without one are public (health). */
    scope?: string
    /** A dashboard route for any signed-in user, whatever their role (their own session, sign-out). */
    session?: boolean
    /** The body may be left out (it then reads as {}): the document says the request body is optional. */
    bodyOptional?: boolean
  }
}

export interface ServerDeps {
  core: Core
  service: ScoringService
  /** Shared by every listener of the process, so a key's budget is one per instance. */
  limiter: RateLimiter
  health: () => Promise<Record<string, unknown>>
  /** Consumer lag per group of this process (in the health report, and drawn by the overview). */
  lag?: () => Promise<Record<string, number>>
  /** Readiness: why this instance should not get traffic yet (none: ready), and its consumers' lag. */
  ready?: () => Promise<{ reasons: string[], lag: Record<string, number> }>
  /** Dashboard sessions: a request without an Authorization header may authenticate with its session cookie. */
  dashboard?: DashboardAuth
  /** The operator's bearer token (METRICS_TOKEN): GET /healthz shows its whole report only to it. */
  operatorToken?: string
  /** OPERATOR_TOKEN: the operator API's credential (/admin/v1, off when undefined). */
  adminToken?: string
  /** Bounds on each listener's connections and how long a request may take to arrive. */
  connections: ConnectionBounds
  /** With more than one cell: passes another cell's tenants' requests to that cell (cell-forwarding.ts). */
  cells?: CellForwarder
  /** The deployment's number of cells (a new tenant's cell). */
  cellCount?: number
  /** Sees every JSON response before it is serialized (the contract harness of the tests: test/support/contract.ts). */
  observeResponse?: (response: ObservedResponse) => void
}

/** A JSON response as its route produced it, before serialization (which keeps only what the schema declares). */
export interface ObservedResponse {
  method: string
  /** The route's path as the OpenAPI document writes it (/v1/cases/{id}); undefined when no route matched. */
  path: string | undefined
  status: number
  body: unknown
  /** The OpenAPI document of this server. */
  document: () => unknown
}

export interface ListenerOptions {
  /** TLS options of a dedicated HTTPS listener (the mutual-TLS endpoint). */
  https?: https.ServerOptions
  /** Require a client certificate signed by the tenant's uploaded CA (besides the API key). */
  mutualTls?: boolean
}

export async function buildServer (deps: ServerDeps, listener: ListenerOptions = {}): Promise<FastifyInstance> {
  const { core, limiter } = deps
  const timeouts = serverTimeouts(deps.connections)
  const app = Fastify({
    ...timeouts,
    ...(listener.https === undefined ? {} : { https: { ...listener.https, ...timeouts.http } }),
    loggerInstance: core.logger as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => newId('trc'),
    bodyLimit: 1024 * 1024,
    ajv: { customOptions: AJV_OPTIONS },
    schemaController: { compilersFactory: { buildValidator: routeValidators() } },
    // Errors the router meets before any route runs (bad percent-encoding, over-long path parameters).
    frameworkErrors: errorHandler,
    clientErrorHandler,
    // While closing, requests already arriving on open connections are served (with Connection: close), not
    // answered 503 outside the error envelope.
    return503OnClosing: false
  })
  guardConnections(app.server, deps.connections.maxConnections, listener.https !== undefined)
  addNamedSchemas(app)
  declareResponses(app)
  app.decorateRequest('principal', null)
  app.decorateRequest('caller', {
    getter (this: FastifyRequest) {
      if (this.principal === null) throw new Error(`route ${this.routeOptions.url ?? ''} reads its caller but declares no scope`)
      return this.principal
    }
  })
  app.decorateRequest('scope', { getter (this: FastifyRequest) { return principalScope(this.caller) } })
  app.decorateRequest('startedAt', 0)
  app.decorateRequest('signedIn', null)
  app.decorateRequest('span', null)
  await app.register(fastifyCookie)
  app.setErrorHandler(errorHandler)
  app.setNotFoundHandler(notFoundHandler)
  // JSON only: other media types get 415 unsupported_media_type instead of being parsed as text.
  app.removeContentTypeParser('text/plain')
  registerJsonLimits(app)
  const allowedMethods = collectRouteMethods(app)

  // Shutdown: every response from now on closes its connection, so a busy keep-alive client cannot hold
  // close() open; idle connections are closed by fastify itself.
  let closing = false
  app.addHook('preClose', async () => { closing = true })
  const observe = deps.observeResponse
  if (observe !== undefined) {
    app.addHook('preSerialization', async (request, reply, payload) => {
      const route = request.is404 ? undefined : request.routeOptions.url
      observe({ method: request.method, path: route === undefined ? undefined : documentPath(route), status: reply.statusCode, body: payload, document: () => app.swagger() })
      return payload
    })
  }
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) void reply.header('connection', 'close')
    return payload
  })
  app.addHook('onResponse', async (request, reply) => {
    const route = request.is404 ? 'unmatched' : request.routeOptions.url ?? 'unmatched'
    request.span?.setAttributes({ 'http.route': route, 'http.response.status_code': reply.statusCode })
    if (reply.statusCode >= 500) request.span?.setStatus({ code: SpanStatusCode.ERROR })
    request.span?.end()
    httpDuration.observe({ method: request.method, route, status: String(reply.statusCode) }, (performance.now() - request.startedAt) / 1000)
  })

  app.addHook('onRequest', async (request, reply) => {
    request.startedAt = performance.now()
    // A span per request, continuing the caller's trace when it sent a traceparent; trace_id is the decision's.
    const parent = request.headers.traceparent
    request.span = tracer.startSpan(`${request.method} ${request.routeOptions.url ?? 'unmatched'}`, { kind: SpanKind.SERVER, attributes: { 'http.request.method': request.method, 'fds.trace_id': request.id } }, contextOf(typeof parent === 'string' ? parent : undefined))
    void reply.header('x-trace-id', request.id)
    if (request.is404) {
      // No route for this method and path. A path some route answers gets 405 with Allow, before any body is read.
      const allowed = allowedMethods(request.url)
      if (allowed !== undefined) return methodNotAllowed(request, reply, allowed)
      return
    }
    // Bodies are read as sent: a compressed one would be parsed as JSON text, or its limits checked before inflation.
    const encoding = request.headers['content-encoding']
    if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
      throw new ApiError('unsupported_media_type', `Content-Encoding '${encoding.slice(0, 40)}' is not accepted: send the body uncompressed.`)
    }
    const { scope, session } = request.routeOptions.config
    if (scope === undefined && session !== true) return
    if (deps.dashboard !== undefined && (session === true || (request.headers.authorization === undefined && request.cookies[SESSION_COOKIE] !== undefined))) {
      const signedIn = await signedInOf(deps.dashboard, request)
      requireActiveTenant(signedIn.principal, core.tenantDirectory)
      if (scope !== undefined) requireScope(signedIn.principal, scope)
      const limit = limiter.takeFor(signedIn.principal, core.clock(), 1, core.tenantDirectory)
      if (!limit.allowed) throw rateLimitedError(limit)
      request.principal = signedIn.principal
      request.signedIn = signedIn
    } else {
      if (scope === undefined) return
      const principal = await authenticate(core, limiter, request.headers.authorization, scope, limit => reportRateLimit(reply, limit))
      if (listener.mutualTls === true) await requireClientCertificate(core.state, request, principal)
      request.principal = principal
    }
    // Checked here, answered by the tenant's cell (cell-forwarding.ts).
    const tenant = request.principal.tenant
    const cell = deps.cells?.elsewhere(tenant)
    if (cell !== undefined) return await deps.cells!.forward(request, reply, tenant, cell)
  })

  registerIdempotency(app, core)
  await registerOpenApi(app)

  // Liveness: 200 while the process serves; `status` is `degraded` while the relay or a consumer is failing. The
  // report (consumer groups, lag, failures, dead letters) only for the operator's credential: it names internals.
  const operator = deps.operatorToken === undefined ? undefined : Buffer.from(`Bearer ${deps.operatorToken}`)
  const isOperator = (request: FastifyRequest) => operator !== undefined && sameBytes(Buffer.from(request.headers.authorization ?? ''), operator)
  app.get('/healthz', { schema: { response: { 200: ref(Health) } } }, async request => {
    const report = await deps.health()
    return isOperator(request) ? report : { status: report.status }
  })
  // Readiness: 503 until the control-plane views have caught up, and while a consumer lags past READY_MAX_LAG
  // (the reasons and the lag, naming consumer groups, for the operator's credential only).
  app.get('/readyz', { schema: { response: { 200: ref(Readiness), 503: { ...ref(Readiness), description: 'Not ready (see `status`).' } } } }, async (request, reply) => {
    const { reasons, lag } = await deps.ready?.() ?? { reasons: [], lag: {} }
    const detail = isOperator(request) ? { reasons, lag } : {}
    return reasons.length === 0 ? { status: 'ready', ...detail } : reply.code(503).send({ status: 'not_ready', ...detail })
  })
  scoreRoutes(app, deps.service, core.clock)
  batchRoutes(app, deps.service, core.clock, limiter, core.tenantDirectory)
  transactionRoutes(app, core.state)
  // Rules, rollout, backtest, lists, risk settings: each a plugin given only what it uses, loaded here (awaited)
  // so the routes keep their place among the others.
  const rulesets = { control: core.controlPlane, audit: core.audit, clock: core.clock, tenants: core.tenantDirectory }
  await app.register(ruleRoutes, rulesets)
  await app.register(rolloutRoutes, rulesets)
  await app.register(backtestRoutes, { control: core.controlPlane, state: core.state })
  await app.register(ruleInsightRoutes, { state: core.state, clock: core.clock, control: core.controlPlane })
  await app.register(listRoutes, rulesets)
  await app.register(riskSettingsRoutes, { ...rulesets, models: core.modelRegistry })
  await app.register(overviewRoutes, { state: core.state, clock: core.clock, models: core.modelRegistry, lag: deps.lag ?? (async () => ({})) })
  caseRoutes(app, core)
  overrideRoutes(app, core)
  webhookRoutes(app, core)
  keyRoutes(app, core)
  if (deps.adminToken !== undefined) await app.register(adminTenantRoutes, { core, operatorToken: deps.adminToken, cells: deps.cellCount ?? 1 })
  auditRoutes(app, core)
  mtlsRoutes(app, core)
  signalRoutes(app, core)
  if (deps.dashboard !== undefined) {
    dashboardSessionRoutes(app, deps.dashboard)
    dashboardUserRoutes(app, { dashboard: deps.dashboard, state: core.state })
  }
  return app
}

/**
 * The route patterns of the app and their methods, collected as routes are added (register before any route).
 * Returns a lookup: the methods of the route that a request path names (the most specific matching patterns, as
 * the router prefers /v1/rules/rollout over /v1/rules/:id), HEAD included wherever GET is; undefined when no route
 * has this path.
 */
function collectRouteMethods (app: FastifyInstance): (url: string) => string[] | undefined {
  const patterns = new Map<string, { regex: RegExp, dynamic: number, methods: Set<string> }>()
  app.addHook('onRoute', route => {
    let pattern = patterns.get(route.url)
    if (pattern === undefined) {
      const segments = route.url.split('/')
      const regex = segments.map(s => s === '*' ? '.*' : s.startsWith(':') ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('/')
      pattern = { regex: new RegExp(`^${regex}$`), dynamic: segments.reduce((n, s) => n + (s === '*' ? 100 : s.startsWith(':') ? 1 : 0), 0), methods: new Set() }
      patterns.set(route.url, pattern)
    }
    for (const method of [route.method].flat()) {
      pattern.methods.add(method)
      if (method === 'GET') pattern.methods.add('HEAD')
    }
  })
  return url => {
    const path = url.split('?', 1)[0]!
    let best: { dynamic: number, methods: Set<string> } | undefined
    for (const p of patterns.values()) {
      if (!p.regex.test(path)) continue
      if (best === undefined || p.dynamic < best.dynamic) best = { dynamic: p.dynamic, methods: new Set(p.methods) }
      else if (p.dynamic === best.dynamic) for (const m of p.methods) best.methods.add(m)
    }
    return best === undefined ? undefined : [...best.methods].sort()
  }
}

/**
 * JSON bodies as fastify parses them (secure-json-parse, __proto__ and constructor refused), with two checks
 * of input-limits.ts: nesting depth on the raw text before parsing, then strings and numbers every store and
 * encoding can carry. Path and query parameters get the second check too.
 */
function registerJsonLimits (app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, raw, done) => {
    // Invalid UTF-8 would decode to U+FFFD, making two different byte strings one id: refused instead.
    if (!isUtf8(raw as Buffer)) return done(new ApiError('invalid_json', 'The request body is not valid UTF-8.'), undefined)
    const body = (raw as Buffer).toString('utf8')
    const tooDeep = jsonDepthError(body)
    if (tooDeep !== undefined) return done(tooDeep, undefined)
    parseJson(request, body, (err, value) => {
      const bad = err === null ? plainJsonError(value) : undefined
      if (bad !== undefined) done(bad, undefined)
      else if (err !== null) done(err, undefined)
      else done(null, value)
    })
  })
  app.addHook('preValidation', async request => {
    const bad = plainJsonError(request.params) ?? plainJsonError(request.query)
    if (bad !== undefined) throw bad
  })
}
