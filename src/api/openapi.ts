import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance, RouteOptions } from 'fastify'
import { errorSchema } from './errors.js'
import { ERRORS as ERROR_CATALOGUE, type ErrorCode, type ErrorType } from '../services/errors.js'
import { OPERATIONS, TAGS } from './operations.js'
import { componentName } from './schemas/named.js'
import { EVENTS } from './schemas/events.js'

/** What the document needs to know about a route beyond its schema; carried from `transform` to `transformObject`. */
interface RouteFacts { method: string, authenticated: boolean, scope: string | null, body: boolean, bodyOptional: boolean, query: boolean, path: boolean }

const FACTS = 'x-fds-route'

/** Names and notes of the error responses, one per status; their codes and type come from the catalogue. */
const STATUS_NOTES: Record<string, { name: string, note: string }> = {
  400: { name: 'InvalidRequest', note: 'invalid request; invalid_url and malformed_request for a request that is not valid HTTP.' },
  401: { name: 'Unauthenticated', note: 'no valid API key; on the mutual-TLS listener, no valid client certificate.' },
  403: { name: 'Forbidden', note: 'the key may not do this.' },
  404: { name: 'NotFound', note: 'no such object (or no such object named in the body, e.g. trace_id).' },
  405: { name: 'MethodNotAllowed', note: 'the path names a route that does not take this method (any method a path item does not list); Allow lists the ones it takes.' },
  408: { name: 'RequestTimeout', note: 'the request was not received in time.' },
  409: { name: 'Conflict', note: 'a request with this Idempotency-Key is still running, or the change conflicts with the current state.' },
  413: { name: 'PayloadTooLarge', note: 'the request body (or one batch event) is larger than the limit.' },
  414: { name: 'UriTooLong', note: 'a path parameter is longer than 100 characters.' },
  415: { name: 'UnsupportedMediaType', note: 'send the request body as application/json.' },
  422: { name: 'IdempotencyKeyMismatch', note: 'this Idempotency-Key was used with other parameters.' },
  429: { name: 'RateLimited', note: 'too many requests for this API key; retry after Retry-After seconds.' },
  431: { name: 'HeadersTooLarge', note: 'the request headers are larger than the limit (16 KiB).' },
  500: { name: 'InternalError', note: 'the request was not recorded; retry with the same Idempotency-Key.' },
  503: { name: 'NotConfirmed', note: 'the change was not confirmed in time (not_confirmed: the event log is unavailable or slow; it may still be applied: read it back, or retry with the same Idempotency-Key), the local store cannot write (storage_unavailable: a full disk; nothing was recorded), the rule workers are all busy (rules_worker_busy), or the tenant\u2019s cell did not answer a forwarded request (cell_unavailable); retry after Retry-After seconds.' }
}

/** The error responses of the API, one per status: the envelope with the status's type and codes from ERROR_CATALOGUE. */
const ERRORS: Record<string, { name: string, type: ErrorType, description: string }> = Object.fromEntries(Object.entries(STATUS_NOTES).map(([status, { name, note }]) => {
  const codes = (Object.keys(ERROR_CATALOGUE) as ErrorCode[]).filter(c => String(ERROR_CATALOGUE[c].status) === status)
  return [status, { name, type: ERROR_CATALOGUE[codes[0]!].type, description: `${codes.join(', ')}: ${note}` }]
}))

/** Responses an operation gives that its route facts do not show (a 404 for an id named in the body, or for the one object of a tenant). */
const EXTRA_STATUSES: Record<string, number[]> = {
  'post /v1/cases': [404],
  'get /v1/mtls/client_ca': [404],
  'get /readyz': [503]
}

/**
 * The error statuses of one operation. Every request can be malformed HTTP (400), too slow (408) or carry
 * too many header bytes (431), and any may fail (500). Parameters and bodies are validated (400); a path
 * parameter may name nothing (404) or be too long (414). Authenticated routes check the key (401), its
 * scope (403) and its rate (429). An authenticated POST takes an Idempotency-Key (400 invalid, 409 in use,
 * 422 mismatch); every POST body goes through the JSON parser and the body limit (413, 415) whether the
 * route reads a body or not; writes may conflict with the current state (409); and any authenticated request may
 * meet a 503 (a write not confirmed in time, a store that cannot write, busy rule workers, an unreachable cell).
 */
function errorStatuses (f: RouteFacts, key: string): number[] {
  const s = new Set<number>([400, 408, 431, 500, ...(EXTRA_STATUSES[key] ?? [])])
  const post = f.method === 'post'
  if (f.path) s.add(404).add(414)
  if (f.authenticated) {
    s.add(401).add(403).add(429)
    if (post) s.add(409).add(422)
    if (f.method !== 'get') s.add(409)
    // Any of them may be forwarded to the tenant's cell, which may not answer (cell_unavailable); writes may
    // also not be confirmed in time, and scores find the store unable to write.
    s.add(503)
  }
  if (f.body || post) s.add(413).add(415)
  return [...s].sort((a, b) => a - b)
}

const traceHeader = { description: 'The request\u2019s trace id (as in the body\u2019s trace_id).', required: true, schema: { type: 'string' } }
const retryAfter = (description: string) => ({ description, required: true, schema: { type: 'integer', minimum: 1 } })
const rateHeaders = {
  'X-RateLimit-Limit': { description: 'Sustained requests per second of this key.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the key\u2019s bucket.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'The unix time (seconds) at which the key\u2019s bucket is full again.', schema: { type: 'integer' } }
}
const replayedHeader = {
  'Idempotent-Replayed': { description: '"true" when this is the stored answer of an earlier request with the same Idempotency-Key.', schema: { type: 'string', enum: ['true'] } }
}

function errorResponse (status: string) {
  const e = ERRORS[status]!
  return {
    description: e.description,
    headers: {
      'X-Trace-Id': traceHeader,
      ...(status === '405' ? { Allow: { description: 'The methods the path takes, e.g. "GET, HEAD, POST".', required: true, schema: { type: 'string' } } } : {}),
      ...(status === '429' ? { 'Retry-After': retryAfter('Seconds until the key may send again.') } : {}),
      ...(status === '503' ? { 'Retry-After': retryAfter('Seconds to wait before reading the change back or retrying.') } : {})
    },
    content: { 'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/Error' }, { properties: { error: { properties: { type: { const: e.type } } } } }] } } }
  }
}

/**
 * Strings the service accepts anywhere in a body, a path or a query (input-limits.ts, applied to every route
 * by server.ts): no NUL character, which separates the parts of a state key. Added to every request string
 * schema that does not already exclude it with a pattern, format or enum.
 */
const NO_NUL = '^[^\\u0000]*$'

/** A free-form JSON value (geo, metadata, a score request's own keys, a batch's events) as the service takes it. */
const plainJson = {
  description: 'Any JSON value whose strings and keys hold no NUL character.',
  type: ['string', 'number', 'integer', 'boolean', 'null', 'array', 'object'],
  pattern: NO_NUL,
  items: { $ref: '#/components/schemas/PlainJson' },
  propertyNames: { pattern: NO_NUL },
  additionalProperties: { $ref: '#/components/schemas/PlainJson' }
}

type Schema = Record<string, unknown>

function types (s: Schema): string[] {
  return Array.isArray(s.type) ? s.type as string[] : typeof s.type === 'string' ? [s.type] : []
}

/** Adds the no-NUL rule to a request schema, in place: strings get the pattern, free-form values PlainJson. */
function requestStrings (s: unknown): void {
  if (s === null || typeof s !== 'object' || Array.isArray(s)) return
  const schema = s as Schema
  if (schema.$ref !== undefined) return
  const t = types(schema)
  if (t.includes('string') && schema.pattern === undefined && schema.format === undefined && schema.enum === undefined && schema.const === undefined &&
      schema.anyOf === undefined && schema.oneOf === undefined && schema.allOf === undefined) {
    schema.pattern = NO_NUL
  }
  if (t.includes('object')) {
    const properties = (schema.properties ?? {}) as Record<string, unknown>
    for (const p of Object.values(properties)) requestStrings(p)
    if (schema.additionalProperties === undefined || schema.additionalProperties === true) {
      schema.additionalProperties = { $ref: '#/components/schemas/PlainJson' }
    } else {
      requestStrings(schema.additionalProperties)
    }
    // Keys of their own choosing (additional properties) hold no NUL either.
    if (schema.additionalProperties !== false) {
      const names = (schema.propertyNames ??= {}) as Schema
      if (names.pattern === undefined && names.format === undefined && names.enum === undefined && names.const === undefined) names.pattern = NO_NUL
    }
  }
  if (t.includes('array')) {
    if (schema.items === undefined) schema.items = { $ref: '#/components/schemas/PlainJson' }
    else requestStrings(schema.items)
  }
  for (const k of ['anyOf', 'oneOf', 'allOf'] as const) {
    if (Array.isArray(schema[k])) for (const sub of schema[k] as unknown[]) requestStrings(sub)
  }
}

const LOCAL_DEFS = '#/$defs/'

/** Points a schema's references to its own $defs (`#/$defs/X`) at components.schemas, in place. */
function rewriteDefRefs (node: unknown): void {
  if (node === null || typeof node !== 'object') return
  if (Array.isArray(node)) {
    for (const item of node) rewriteDefRefs(item)
    return
  }
  const o = node as Schema
  if (typeof o.$ref === 'string' && o.$ref.startsWith(LOCAL_DEFS)) o.$ref = `#/components/schemas/${o.$ref.slice(LOCAL_DEFS.length)}`
  for (const v of Object.values(o)) rewriteDefRefs(v)
}

/**
 * Moves the $defs of a route's schema (score-schema.ts's FreeForm) to components.schemas, since in the
 * document `#` is the document, not the schema; returns the names it added. A name means one schema: the same
 * $defs on two routes are added once, two different schemas under one name fail the document.
 */
function hoistDefs (schema: unknown, schemas: Record<string, unknown>, hoisted: Map<string, string>): string[] {
  if (schema === null || typeof schema !== 'object' || (schema as Schema).$defs === undefined) return []
  const root = schema as Schema
  const defs = root.$defs as Record<string, unknown>
  delete root.$defs
  rewriteDefRefs(root)
  rewriteDefRefs(defs)
  const added: string[] = []
  for (const [name, def] of Object.entries(defs)) {
    const json = JSON.stringify(def)
    const known = hoisted.get(name)
    if (known === json) continue
    if (known !== undefined || schemas[name] !== undefined) throw new Error(`OpenAPI: two different schemas are named ${name}`)
    hoisted.set(name, json)
    schemas[name] = def
    added.push(name)
  }
  return added
}

interface Operation {
  [FACTS]?: RouteFacts
  parameters?: Array<{ in?: string, schema?: unknown }>
  requestBody?: { required?: boolean, content?: Record<string, { schema?: unknown }> }
  responses?: Record<string, { description?: string, content?: unknown, headers?: Record<string, unknown> }>
  security?: unknown
}

/**
 * Completes every operation from the facts `transform` left on it: its error responses (by reference to
 * components.responses), its success headers, bearer security (none for public routes), the Idempotency-Key
 * header of authenticated POSTs, and the no-NUL rule on request strings.
 */
function completeDocument (generated: { paths?: Record<string, Record<string, Operation>>, components?: Record<string, Record<string, unknown>> }) {
  // A copy: the generated schemas may be the routes' own objects, which must stay as they are.
  const doc = structuredClone(generated)
  const components = (doc.components ??= {})
  const responses = (components.responses ??= {})
  for (const status of Object.keys(ERRORS)) responses[ERRORS[status]!.name] = errorResponse(status)
  const schemas: Record<string, unknown> = components.schemas = { ...components.schemas, Error: { description: 'The error envelope of every error response.', ...errorSchema, required: ['error'] }, PlainJson: plainJson }
  const hoisted = new Map<string, string>()
  const unnamed = new Set(Object.keys(OPERATIONS))
  for (const [url, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item)) {
      const facts = op[FACTS]
      if (facts === undefined) continue
      delete op[FACTS]
      const key = `${method.toUpperCase()} ${url}`
      const name = OPERATIONS[key]
      if (name === undefined) throw new Error(`OpenAPI: ${key} has no operationId, summary and tag in operations.ts`)
      unnamed.delete(key)
      Object.assign(op, { operationId: name.id, summary: name.summary, tags: [name.tag] })
      const all = (op.responses ??= {})
      // Every success is a JSON object; routes without a response schema get that much documented.
      for (const [status, r] of Object.entries(all)) {
        if (!status.startsWith('2')) continue
        r.content ??= { 'application/json': { schema: { type: 'object' } } }
        r.headers = { 'X-Trace-Id': traceHeader, ...(facts.authenticated ? rateHeaders : {}), ...(facts.authenticated && facts.method === 'post' ? replayedHeader : {}), ...r.headers }
      }
      // A status the route declares a schema for (readiness's 503) keeps it; the others are the error envelope.
      for (const status of errorStatuses(facts, `${method} ${url}`)) all[String(status)] ??= { $ref: `#/components/responses/${ERRORS[String(status)]!.name}` } as never
      op.security = facts.authenticated ? [{ apiKey: [] }] : []
      for (const p of op.parameters ?? []) if (p.in === 'path' || p.in === 'query') requestStrings(p.schema)
      if (facts.bodyOptional && op.requestBody !== undefined) op.requestBody.required = false
      for (const media of Object.values(op.requestBody?.content ?? {})) {
        const defs = hoistDefs(media.schema, schemas, hoisted)
        requestStrings(media.schema)
        for (const name of defs) requestStrings(schemas[name])
        // A body a client builds by name (ScoreRequest, Disposition, ...) is a component of that name.
        const named = name.body
        if (named !== undefined) {
          schemas[named] = media.schema
          media.schema = { $ref: `#/components/schemas/${named}` }
        }
      }
      if (facts.authenticated && facts.method === 'post') {
        (op.parameters ??= []).push({
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'Makes the POST safe to retry: the first answer (below 500) is replayed for 24 h with Idempotent-Replayed: true. The same key with other parameters is 422 idempotency_key_mismatch; while the first request runs, 409 idempotency_key_in_use.',
          schema: { type: 'string', minLength: 1, maxLength: 255 }
        } as never)
      }
    }
  }
  if (unnamed.size > 0) throw new Error(`OpenAPI: operations.ts names operations no route serves: ${[...unnamed].join(', ')}`)
  return { ...doc, webhooks: webhookEvents() }
}

/**
 * The events the service POSTs to a tenant's webhook endpoints (OpenAPI 3.1 `webhooks`), one per type: the
 * signed envelope with its type's data (schemas/events.ts; docs/webhooks.md).
 */
function webhookEvents () {
  return Object.fromEntries(EVENTS.map(schema => {
    const type = (schema.properties as { type: { const: string } }).type.const
    return [type, {
      post: {
        operationId: `on${schema.$id}`,
        summary: `${type}: ${String(schema.description)}`,
        tags: ['Webhooks'],
        parameters: [{
          name: 'X-Service-Signature',
          in: 'header',
          required: true,
          description: 't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the endpoint\u2019s secret>, one v1 per secret still signing (two during a rotation). Verify it before trusting the body (the client libraries\u2019 verifyWebhook / verify_webhook).',
          schema: { type: 'string' }
        }],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema.$id}` } } } },
        responses: { 200: { description: 'Any 2xx within 5 s acknowledges the event; anything else is retried (410 disables the endpoint).' } },
        security: []
      }
    }]
  }))
}

function routeFacts (route: RouteOptions, url: string): RouteFacts {
  const method = (Array.isArray(route.method) ? route.method[0]! : route.method).toLowerCase()
  const schema = route.schema ?? {}
  const scope = route.config?.scope
  return { method, authenticated: scope !== undefined, scope: scope ?? null, body: schema.body !== undefined, bodyOptional: route.config?.bodyOptional === true, query: schema.querystring !== undefined, path: /[:*]/.test(url) }
}

/**
 * OpenAPI 3.1, generated from the route schemas by @fastify/swagger: GET /v1/openapi.json, and a docs page
 * (Swagger UI, served from the package, no network) at /v1/docs. The error responses (the envelope of
 * errors.ts), bearer security and the Idempotency-Key header are added here for every route, from its
 * method, its schema and its `config.scope`, so route files declare only their own request and success shapes.
 */
export async function registerOpenApi (app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Fraud decision service', version: '1.0.0', description: 'Inline fraud decisions, rules, cases, webhooks. Errors use {"error": {type, code, message, param?, trace_id}}. A method a path does not list is answered 405 method_not_allowed with Allow (components.responses.MethodNotAllowed).' },
      servers: [{ url: '/', description: 'The instance that serves this document (any instance of the deployment answers for every tenant).' }],
      tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
      components: { securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer sk_live_... or sk_test_...' } } },
      security: [{ apiKey: [] }]
    },
    refResolver: { buildLocalReference: componentName },
    transform: ({ schema, url, route }) => ({ url, schema: { ...schema, [FACTS]: routeFacts(route, url) } as typeof schema }),
    transformObject: doc => completeDocument(('openapiObject' in doc ? doc.openapiObject : doc.swaggerObject) as never) as never
  })
  await app.register(swaggerUi, { routePrefix: '/v1/docs' })
  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger())
}
