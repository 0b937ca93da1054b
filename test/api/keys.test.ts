import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { apiKeyByIdKey } from '../../src/stores/api-keys.js'
import { auditEntries } from '../../src/stores/audit.js'
import { auth, eventually, LIVE_KEY, startTestApp } from '../support/app.js'

let app: App
let now = Date.parse('2026-11-22T12:00:00Z')
const call = (method: 'GET' | 'POST', url: string, payload?: object, key?: string) =>
  app.server.inject({ method, url, headers: auth(key), ...(payload === undefined ? {} : { payload }) })
const score = (key: string) => call('POST', '/v1/score', { event: 'login', user_id: 'u-key' }, key)

beforeAll(async () => { app = await startTestApp({}, { clock: () => now }) })
afterAll(async () => { await app.close() })

describe('API keys', () => {
  it('creates a key per environment, shows the secret once, stores only its hash, enforces its scopes', async () => {
    const created = (await call('POST', '/v1/keys', { name: 'checkout', scopes: ['score:write'] })).json()
    expect(created).toMatchObject({ object: 'api_key', name: 'checkout', livemode: false, scopes: ['score:write'], status: 'active', expires_at: null })
    expect(created.secret).toMatch(/^sk_test_[A-Za-z0-9_-]{32}$/)
    expect(created.redacted).toBe(`sk_test_...${created.secret.slice(-4)}`)
    expect((await call('GET', `/v1/keys/${created.id}`)).json().secret).toBeUndefined()
    const stored = (await app.state.get(apiKeyByIdKey(app.identity.defaultTenant, created.id)))!.toString()
    expect(stored).not.toContain(created.secret)
    expect(JSON.parse(stored).secret_hash).toMatch(/^[0-9a-f]{64}$/)
    expect((await score(created.secret)).statusCode).toBe(200)
    expect((await call('GET', '/v1/rules', undefined, created.secret)).json().error.code).toBe('insufficient_scope')

    expect((await call('POST', '/v1/keys', { name: 'x', livemode: true })).json().error).toMatchObject({ code: 'live_key_required' })
    const live = (await call('POST', '/v1/keys', { name: 'prod', livemode: true, scopes: ['score:write'] }, LIVE_KEY)).json()
    expect(live.secret).toMatch(/^sk_live_/)
    expect((await call('GET', `/v1/keys/${live.id}`)).statusCode).toBe(404)
    expect((await call('POST', '/v1/keys', { name: 'x', scopes: ['admin'] })).json().error.param).toBe('scopes.0')
  })

  it('rotates: the old key works for 24 h, then 401 key_expired; revocation is immediate; all audited', async () => {
    const original = (await call('POST', '/v1/keys', { name: 'rotating', scopes: ['score:write'] })).json()
    const rotated = (await call('POST', `/v1/keys/${original.id}/rotate`)).json()
    expect(rotated.secret).not.toBe(original.secret)
    expect((await call('GET', `/v1/keys/${original.id}`)).json()).toMatchObject({ rotated_to: rotated.id, expires_at: Math.floor(now / 1000) + 86400 })
    expect((await score(original.secret)).statusCode).toBe(200)
    now += 86_400_000
    expect((await score(original.secret)).json().error).toMatchObject({ type: 'authentication_error', code: 'key_expired' })
    expect((await score(rotated.secret)).statusCode).toBe(200)
    expect((await call('POST', `/v1/keys/${original.id}/rotate`)).statusCode).toBe(409)

    expect((await call('POST', `/v1/keys/${rotated.id}/revoke`)).json().status).toBe('revoked')
    expect((await score(rotated.secret)).json().error).toMatchObject({ code: 'key_revoked' })

    const scope = { tenant: app.identity.defaultTenant, mode: 'test' as const }
    const trail = await eventually(async () => {
      const a = await auditEntries(app.state, scope, { objectId: original.id })
      const b = await auditEntries(app.state, scope, { objectId: rotated.id })
      return a.length + b.length >= 4 ? [...a, ...b].map(e => e.action) : undefined
    }, 10000, 'key audit entries')
    expect(trail).toEqual(['api_key.created', 'api_key.rotated', 'api_key.created', 'api_key.revoked'])
  })

  it('lists the keys of the tenant and environment without secrets, and needs keys:manage', async () => {
    const list = (await call('GET', '/v1/keys?limit=100')).json()
    expect(list.data.length).toBeGreaterThan(2)
    expect(list.data.every((k: { livemode: boolean, secret?: string }) => !k.livemode && k.secret === undefined)).toBe(true)
    const limited = (await call('POST', '/v1/keys', { name: 'no-admin', scopes: ['score:write'] })).json()
    expect((await call('GET', '/v1/keys', undefined, limited.secret)).json().error.code).toBe('insufficient_scope')
  })

  it('grants at most the scopes the calling key holds: on create, by default, and on rotation', async () => {
    const manager = (await call('POST', '/v1/keys', { name: 'key-manager', scopes: ['keys:manage'] })).json()
    const escalate = await call('POST', '/v1/keys', { name: 'everything' }, manager.secret)
    expect(escalate.statusCode).toBe(200)
    expect(escalate.json().scopes).toEqual(['keys:manage'])
    const asked = await call('POST', '/v1/keys', { name: 'scorer', scopes: ['score:write', 'keys:manage'] }, manager.secret)
    expect(asked.statusCode).toBe(403)
    expect(asked.json().error).toMatchObject({ type: 'permission_error', code: 'insufficient_scope', param: 'scopes' })
    expect(asked.json().error.message).toContain('score:write')
    // Rotation mints a key with the old key's scopes: only a caller holding all of them may rotate it.
    const wide = (await call('POST', '/v1/keys', { name: 'wide', scopes: ['score:write', 'rules:write'] })).json()
    expect((await call('POST', `/v1/keys/${wide.id}/rotate`, undefined, manager.secret)).json().error.code).toBe('insufficient_scope')
    expect((await call('GET', `/v1/keys/${wide.id}`)).json().rotated_to).toBeNull()
    const narrow = (await call('POST', '/v1/keys', { name: 'narrow', scopes: ['keys:manage'] })).json()
    expect((await call('POST', `/v1/keys/${narrow.id}/rotate`, undefined, manager.secret)).json().scopes).toEqual(['keys:manage'])
  })
})
