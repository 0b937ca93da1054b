import { randomUUID } from 'node:crypto'
import createFetchClient, { type Client, type Middleware } from 'openapi-fetch'
import type { paths } from './schema.js'
import { FraudApiError, type ErrorBody } from './errors.js'
import { retryingFetch, type RetryOptions } from './retries.js'

export interface ClientOptions extends Partial<RetryOptions> {
  /** A secret key: sk_test_... (sandbox) or sk_live_.... */
  apiKey: string
  /** Where the service answers, e.g. https://fraud.example.com (default http://localhost:3000). */
  baseUrl?: string
  /** The fetch to send with (default the global one). */
  fetch?: (request: Request) => Promise<Response>
}

export type FraudClient = Client<paths>

/** Every POST carries an Idempotency-Key (one the caller set is kept), so its retries are done once. */
const idempotencyKeys: Middleware = {
  onRequest ({ request }) {
    if (request.method === 'POST' && !request.headers.has('idempotency-key')) request.headers.set('idempotency-key', randomUUID())
    return request
  }
}

/** An error answer becomes a FraudApiError carrying the envelope's code, param and trace_id. */
const typedErrors: Middleware = {
  async onResponse ({ response }) {
    if (response.ok) return response
    const body = await response.clone().json().catch(() => undefined) as { error?: ErrorBody } | undefined
    const retryAfter = response.headers.get('retry-after')
    const envelope = body?.error ?? { type: 'api_error', code: `http_${response.status}`, message: `HTTP ${response.status}`, trace_id: response.headers.get('x-trace-id') ?? '' }
    throw new FraudApiError(response.status, envelope, retryAfter === null ? undefined : Number(retryAfter))
  }
}

/**
 * A client of the service: `GET`, `POST` and `DELETE` by path, typed from the OpenAPI document (schema.d.ts);
 * each resolves to `{ data, response }` or throws FraudApiError (an error answer) or FraudConnectionError.
 *
 *   const fds = createClient({ apiKey: process.env.FDS_KEY! })
 *   const decision = await ok(fds.POST('/v1/score', { body: { event: 'payment', amount: 4200, currency: 'EUR' } }))
 */
export function createClient (options: ClientOptions): FraudClient {
  const send = options.fetch ?? (async (request: Request) => await fetch(request))
  const client = createFetchClient<paths>({
    baseUrl: options.baseUrl ?? 'http://localhost:3000',
    headers: { authorization: `Bearer ${options.apiKey}` },
    fetch: retryingFetch(send, { maxRetries: options.maxRetries ?? 2, initialDelayMs: options.initialDelayMs ?? 500, maxDelayMs: options.maxDelayMs ?? 20_000 })
  })
  client.use(idempotencyKeys, typedErrors)
  return client
}

/** The data of a call that succeeded (errors are thrown by the client, so there is always data). */
export async function ok<T> (call: Promise<{ data?: T, response: Response }>): Promise<T> {
  const { data, response } = await call
  if (data === undefined) throw new Error(`${response.status} with no body`)
  return data
}
