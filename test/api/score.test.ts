import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { auth, createTenant, LIVE_KEY, startTestApp } from '../support/app.js'
import { storeApiKey } from '../../src/stores/api-keys.js'

let app: App
const score = (body: unknown, key?: string, headers: Record<string, string> = {}) =>
  app.server.inject({ method: 'POST', url: '/v1/score', headers: { ...auth(key), ...headers }, payload: body as object })

beforeAll(async () => {
  app = await startTestApp({}, { clock: () => Date.parse('2026-11-22T12:00:00Z') })
})
afterAll(async () => { await app.close() })

describe('POST /v1/score', () => {
  it('returns exactly the Decision fields of the spec', async () => {
    const res = await score({ event: 'payment', amount: 25, currency: 'EUR', user_id: 'u-shape', ip: '203.0.113.7', device_id: 'd1', email: 'a@example.com' })
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(Object.keys(body).sort()).toEqual(['action', 'latency_ms', 'risk_level', 'rules', 'score', 'signals', 'trace_id'])
    expect(body.score).toBeGreaterThanOrEqual(0)
    expect(body.score).toBeLessThanOrEqual(1)
    expect(['low', 'medium', 'high']).toContain(body.risk_level)
    expect(['approve', 'flag', 'reject']).toContain(body.action)
    expect(Array.isArray(body.signals)).toBe(true)
    expect(body.rules).toEqual([])
    expect(body.trace_id).toMatch(/^trc_[0-9a-z]{26}$/)
    expect(Number.isInteger(body.latency_ms)).toBe(true)
    expect(res.headers['x-trace-id']).toBe(body.trace_id)
  })

  it('accepts a request with only `event` and keeps extra keys on the recorded transaction', async () => {
    const res = await score({ event: 'signup', card_fingerprint: 'fp_1', merchant: { id: 'm1' } })
    expect(res.statusCode).toBe(200)
    const tx = await app.server.inject({ method: 'GET', url: `/v1/transactions/${res.json().trace_id}`, headers: auth() })
    expect(tx.json().request).toEqual({ event: 'signup', custom: { card_fingerprint: 'fp_1', merchant: { id: 'm1' } } })
  })

  it('counts velocity from earlier responses (read-your-own-writes) and raises the score', async () => {
    const body = { event: 'payment', user_id: 'u-velocity', ip: '198.51.100.9', device_id: 'd-velocity', amount: 10 }
    const first = (await score(body)).json()
    let last = first
    for (let i = 0; i < 25; i++) last = (await score(body)).json()
    const tx = (await app.server.inject({ method: 'GET', url: `/v1/transactions/${last.trace_id}`, headers: auth() })).json()
    expect(tx.evaluation.features.user_count_1h).toBe(25)
    expect(tx.evaluation.features.ip_count_1h).toBe(25)
    expect(tx.evaluation.features.device_known).toBe(1)
    expect(last.score).toBeGreaterThan(first.score)
    expect(last.signals).toContain('velocity')
  })

  it('applies a deny-list rule and the amount threshold (Stage 1)', async () => {
    const added = await app.server.inject({ method: 'POST', url: '/v1/lists/deny_emails/items', headers: auth(), payload: { value: 'fraudster@example.com' } })
    expect(added.statusCode).toBe(200)
    const denied = (await score({ event: 'payment', email: 'fraudster@example.com' })).json()
    expect(denied).toMatchObject({ action: 'reject', rules: ['deny_list'] })
    const big = (await score({ event: 'payment', amount: 25000 })).json()
    expect(big).toMatchObject({ action: 'flag', rules: ['amount_over_10000'] })
  })

  it('applies an admin override (Stage 3) and records which gate changed the action', async () => {
    const created = await app.server.inject({ method: 'POST', url: '/v1/overrides', headers: auth(), payload: { subject: 'user_id', value: 'u-vip', action: 'reject', reason: 'chargeback ring' } })
    const id = created.json().id
    const res = (await score({ event: 'payment', user_id: 'u-vip', amount: 5 })).json()
    expect(res).toMatchObject({ action: 'reject', override_gate: `admin_override:${id}` })
    const tx = (await app.server.inject({ method: 'GET', url: `/v1/transactions/${res.trace_id}`, headers: auth() })).json()
    expect(tx.evaluation).toMatchObject({ base_action: 'approve', override_gate: `admin_override:${id}` })
  })
})

describe('event time', () => {
  it('decides by the event_time a request carries: velocity windows are by event time, not arrival', async () => {
    const t0 = Date.parse('2026-11-20T08:00:00Z') / 1000
    const at = async (seconds: number) => {
      const d = (await score({ event: 'payment', amount: 10, user_id: 'u-replay-time', event_time: seconds })).json()
      return (await app.server.inject({ method: 'GET', url: `/v1/transactions/${d.trace_id}`, headers: auth() })).json()
    }
    expect((await at(t0)).evaluation.features.user_count_1h).toBe(0)
    const tenMinutesLater = await at(t0 + 600)
    expect(tenMinutesLater.evaluation.features.user_count_1h).toBe(1)
    expect(tenMinutesLater.created).toBe(t0 + 600)
    expect(tenMinutesLater.request.event_time).toBe(t0 + 600)
    expect((await at(t0 + 3 * 3600)).evaluation.features.user_count_1h).toBe(0)
    const future = await score({ event: 'payment', event_time: Math.floor(Date.parse('2026-11-22T12:10:00Z') / 1000) })
    expect(future.json().error).toMatchObject({ code: 'parameter_invalid', param: 'event_time' })
  })
})

describe('errors use the envelope and never a 500', () => {
  const envelope = (res: { statusCode: number, json(): any }, status: number, type: string, code: string, param?: string) => {
    expect(res.statusCode).toBe(status)
    const { error } = res.json()
    expect(error).toMatchObject({ type, code })
    expect(typeof error.message).toBe('string')
    expect(error.trace_id).toMatch(/^trc_/)
    if (param !== undefined) expect(error.param).toBe(param)
  }

  it('401 missing_key / invalid_key, and invalid_key for legacy prefixes after 2026-09-01', async () => {
    envelope(await app.server.inject({ method: 'POST', url: '/v1/score', payload: { event: 'x' } }), 401, 'authentication_error', 'missing_key')
    envelope(await score({ event: 'x' }, 'sk_test_doesnotexist000000000'), 401, 'authentication_error', 'invalid_key')
    envelope(await score({ event: 'x' }, 'rk_legacy_abcdef0123456789'), 401, 'authentication_error', 'invalid_key')
    envelope(await app.server.inject({ method: 'POST', url: '/v1/score', headers: { authorization: 'Basic abc' }, payload: { event: 'x' } }), 401, 'authentication_error', 'invalid_key')
  })

  it('accepts a stored legacy key before the cutoff and rejects it after', async () => {
    const { startTestApp: start } = await import('../support/app.js')
    let now = Date.parse('2026-08-31T23:59:59Z')
    const early = await start({}, { clock: () => now })
    try {
      storeApiKey(early.state, 'lk_legacykey0123456789', { id: 'key_legacy', name: 'legacy', tenant_id: early.identity.defaultTenant, livemode: false, scopes: ['score:write'], created_ms: 0 })
      const call = () => early.server.inject({ method: 'POST', url: '/v1/score', headers: { authorization: 'Bearer lk_legacykey0123456789' }, payload: { event: 'x' } })
      expect((await call()).statusCode).toBe(200)
      now = Date.parse('2026-09-01T00:00:00Z')
      envelope(await call(), 401, 'authentication_error', 'invalid_key')
    } finally {
      await early.close()
    }
  })

  it('403 insufficient_scope when the key lacks score:write', async () => {
    storeApiKey(app.state, 'sk_test_readonlykey00000000000', { id: 'key_ro', name: 'ro', tenant_id: app.identity.defaultTenant, livemode: false, scopes: ['transactions:read'], created_ms: 0 })
    envelope(await score({ event: 'x' }, 'sk_test_readonlykey00000000000'), 403, 'permission_error', 'insufficient_scope')
  })

  it('400 parameter_missing naming `event`, parameter_invalid naming the field', async () => {
    envelope(await score({ amount: 5 }), 400, 'invalid_request_error', 'parameter_missing', 'event')
    envelope(await score({ event: 'x', amount: -1 }), 400, 'invalid_request_error', 'parameter_invalid', 'amount')
    envelope(await score({ event: 'x', amount: '12' }), 400, 'invalid_request_error', 'parameter_invalid', 'amount')
    envelope(await score({ event: 'x', ip: '999.1.1.1' }), 400, 'invalid_request_error', 'parameter_invalid', 'ip')
    envelope(await score({ event: 'x', email: 'not-an-email' }), 400, 'invalid_request_error', 'parameter_invalid', 'email')
    envelope(await score({ event: 'x', currency: 'EURO' }), 400, 'invalid_request_error', 'parameter_invalid', 'currency')
    envelope(await score({ event: 'x', geo: 'paris' }), 400, 'invalid_request_error', 'parameter_invalid', 'geo')
    envelope(await score({ event: '' }), 400, 'invalid_request_error', 'parameter_invalid', 'event')
    envelope(await score([{ event: 'x' }]), 400, 'invalid_request_error', 'parameter_invalid')
  })

  it('400 invalid_json for malformed or empty JSON, 415 for other media types, 413 for huge bodies', async () => {
    const raw = (payload: string, type = 'application/json') =>
      app.server.inject({ method: 'POST', url: '/v1/score', headers: { ...auth(), 'content-type': type }, payload })
    envelope(await raw('{"event":'), 400, 'invalid_request_error', 'invalid_json')
    envelope(await raw(''), 400, 'invalid_request_error', 'invalid_json')
    envelope(await raw('{"event":"x","__proto__":{"a":1}}'), 400, 'invalid_request_error', 'invalid_json')
    envelope(await raw('event=x', 'text/plain'), 415, 'invalid_request_error', 'unsupported_media_type')
    envelope(await raw(JSON.stringify({ event: 'x', blob: 'a'.repeat(70 * 1024) })), 413, 'invalid_request_error', 'body_too_large')
  })

  it('404 resource_missing for unknown routes and unknown transactions', async () => {
    envelope(await app.server.inject({ method: 'GET', url: '/v1/nope', headers: auth() }), 404, 'invalid_request_error', 'resource_missing')
    envelope(await app.server.inject({ method: 'GET', url: '/v1/transactions/trc_unknown', headers: auth() }), 404, 'invalid_request_error', 'resource_missing', 'id')
  })
})

describe('GET /v1/transactions/{id}', () => {
  it('returns the recorded decision with its inputs and versions', async () => {
    const decision = (await score({ event: 'payout', amount: 300, user_id: 'u-tx', device_id: 'd-tx' })).json()
    const res = await app.server.inject({ method: 'GET', url: `/v1/transactions/${decision.trace_id}`, headers: auth() })
    expect(res.statusCode).toBe(200)
    const tx = res.json()
    expect(tx).toMatchObject({ object: 'transaction', id: decision.trace_id, livemode: false, event: 'payout', decision })
    expect(tx.request).toEqual({ event: 'payout', amount: 300, user_id: 'u-tx', device_id: 'd-tx' })
    expect(tx.evaluation.ruleset_version).toMatch(/^rs_/)
    expect(tx.evaluation.rule_errors).toEqual([])
    expect(tx.evaluation.model_version).toMatch(/^prior-/)
    expect(tx.evaluation.features).toMatchObject({ amount: 300, user_count_1h: 0, device_known: 0 })
    expect(tx.created).toBe(Math.floor(Date.parse('2026-11-22T12:00:00Z') / 1000))
  })

  it('never shows a sandbox transaction to a live key or to another tenant', async () => {
    const decision = (await score({ event: 'payment', user_id: 'u-iso' })).json()
    const live = await app.server.inject({ method: 'GET', url: `/v1/transactions/${decision.trace_id}`, headers: auth(LIVE_KEY) })
    expect(live.statusCode).toBe(404)
    const tenant = await createTenant(app)
    for (const key of [tenant.keys.test, tenant.keys.live]) {
      const other = await app.server.inject({ method: 'GET', url: `/v1/transactions/${decision.trace_id}`, headers: auth(key) })
      expect(other.statusCode).toBe(404)
    }
  })

  it('keeps velocity separate between sandbox and live', async () => {
    const body = { event: 'payment', user_id: 'u-modes' }
    for (let i = 0; i < 3; i++) await score(body)
    const live = (await score(body, LIVE_KEY)).json()
    const tx = (await app.server.inject({ method: 'GET', url: `/v1/transactions/${live.trace_id}`, headers: auth(LIVE_KEY) })).json()
    expect(tx.livemode).toBe(true)
    expect(tx.evaluation.features.user_count_1h).toBe(0)
  })
})
