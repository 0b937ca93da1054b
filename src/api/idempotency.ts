import { createHash } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Core } from '../services/core.js'
import { stateKey, TAG } from '../stores/keys.js'
import { ApiError } from '../services/errors.js'
import { isStorageFault } from '../stores/storage-fault.js'

/** A stored answer is replayed for this long. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000

interface Stored { fingerprint: string, status: number, body: string, trace_id: string, created_ms: number }

declare module 'fastify' {
  interface FastifyRequest { idempotency: { key: Buffer, fingerprint: string } | null }
}

/** What a replay answers instead of a secret the first response carried (keys, webhook signing secrets). */
export const SECRET_SHOWN_ONCE = 'The secret was shown once, in the first response to this request; it is never repeated.'

/** The stored answer: a top-level `secret` is dropped and said to have been shown once. */
function replayable (payload: string): string {
  if (!payload.includes('"secret"')) return payload
  const body = JSON.parse(payload) as Record<string, unknown>
  if (!('secret' in body)) return payload
  const { secret: _shown, ...rest } = body
  return JSON.stringify({ ...rest, secret_shown_once: SECRET_SHOWN_ONCE })
}

const fingerprintOf = (request: FastifyRequest) =>
  createHash('sha256').update(`${request.method} ${request.url}\u0000${JSON.stringify(request.body ?? null)}`).digest('hex')

/**
 * Idempotency-Key on every authenticated POST: the first answer (any status below 500) is stored durably
 * before it is sent, keyed by the calling API key and the Idempotency-Key (another key, even of the same
 * tenant, never sees it), and replayed for 24 h with `Idempotent-Replayed: true`; a replay never repeats a
 * secret.
 * The same key with other parameters is 422 idempotency_key_mismatch; while the first request runs, 409
 * idempotency_key_in_use. Stored in the serving instance's state; an answer the state cannot store (a full
 * disk) is sent without being stored.
 */
export function registerIdempotency (app: FastifyInstance, core: Pick<Core, 'clock' | 'state'>): void {
  const inFlight = new Set<string>()
  app.decorateRequest('idempotency', null)

  app.addHook('preHandler', async (request, reply) => {
    const header = request.headers['idempotency-key']
    if (request.method !== 'POST' || request.principal === null || header === undefined) return
    const value = Array.isArray(header) ? header[0]! : header
    if (value.length === 0 || value.length > 255) throw new ApiError('parameter_invalid', 'Idempotency-Key must be 1 to 255 characters.', 'Idempotency-Key')
    const p = request.principal
    const key = stateKey(TAG.idempotency, p.tenant, p.mode, p.actor, value)
    const fingerprint = fingerprintOf(request)
    const raw = await core.state.get(key)
    const stored = raw === undefined ? undefined : JSON.parse(raw.toString()) as Stored
    if (stored !== undefined && stored.created_ms + IDEMPOTENCY_TTL_MS > core.clock()) {
      if (stored.fingerprint !== fingerprint) {
        throw new ApiError('idempotency_key_mismatch', 'This Idempotency-Key was used with other parameters; use a new key for a new request.', 'Idempotency-Key')
      }
      void reply.code(stored.status).header('content-type', 'application/json; charset=utf-8').header('idempotent-replayed', 'true').header('x-trace-id', stored.trace_id)
      return reply.send(stored.body)
    }
    const id = key.toString('latin1')
    if (inFlight.has(id)) throw new ApiError('idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed; retry shortly.', 'Idempotency-Key')
    inFlight.add(id)
    request.idempotency = { key, fingerprint }
  })

  app.addHook('onSend', async (request, reply, payload) => {
    const idem = request.idempotency
    if (idem === null) return payload
    request.idempotency = null
    const id = idem.key.toString('latin1')
    // In flight until the answer is stored: a request with the key in between would be decided again.
    try {
      if (reply.statusCode < 500 && typeof payload === 'string') {
        const stored: Stored = { fingerprint: idem.fingerprint, status: reply.statusCode, body: replayable(payload), trace_id: request.id, created_ms: core.clock() }
        try {
          await core.state.committer.commit([{ type: 'put', key: idem.key, value: Buffer.from(JSON.stringify(stored)) }])
        } catch (err) {
          // What the answer says is recorded already: it is sent all the same (a 503 now would have the client
          // retry, and record it twice); a retry with this key is not replayed, it is decided again.
          if (!isStorageFault(err)) throw err
          request.log.child({ component: 'idempotency' }).error({ err }, 'the answer could not be stored; sent without it')
        }
      }
    } finally {
      inFlight.delete(id)
    }
    return payload
  })

  app.addHook('onResponse', async request => {
    if (request.idempotency !== null) inFlight.delete(request.idempotency.key.toString('latin1'))
  })
}
