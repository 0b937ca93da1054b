import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { storeApiKey } from '../../src/stores/api-keys.js'
import { auditEntries } from '../../src/stores/audit.js'
import { verifyWebhookSignature } from '../../src/domain/webhooks/signature.js'
import { auth, createTenant, eventually, startTestApp, tempDir } from '../support/app.js'
import { Receiver } from '../support/receiver.js'
import { webhookEnv } from '../contract/webhooks.flow.js'

let receiver: Receiver
let app: App
let now = Date.parse('2026-11-22T12:00:00Z')
const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, key?: string, target = app) =>
  target.server.inject({ method, url, headers: auth(key), ...(payload === undefined ? {} : { payload }) })
const flag = async (user: string, target = app) => (await call('POST', '/v1/score', { event: 'payment', amount: 20_000, user_id: user }, undefined, target)).json().trace_id as string

beforeAll(async () => {
  receiver = await Receiver.start()
  app = await startTestApp(webhookEnv(receiver), { clock: () => now })
})
afterAll(async () => {
  await app.close()
  await receiver.down()
})

describe('webhook endpoints API', () => {
  it('validates url and events, shows the secret once, lists, updates, deletes, all audited', async () => {
    const bad = async (payload: object, param: string) => expect((await call('POST', '/v1/webhooks', payload)).json().error, JSON.stringify(payload)).toMatchObject({ code: 'parameter_invalid', param })
    await bad({ url: 'http://localhost/hooks', events: ['case.created'] }, 'url')
    await bad({ url: 'https://user:pw@example.com/hooks', events: ['case.created'] }, 'url')
    await bad({ url: 'https://example.com/hooks', events: ['charge.succeeded'] }, 'events.0')
    expect((await call('POST', '/v1/webhooks', { url: 'https://example.com/hooks' })).json().error).toMatchObject({ code: 'parameter_missing', param: 'events' })

    const created = (await call('POST', '/v1/webhooks', { url: 'https://example.com/hooks', events: ['case.created'], description: 'ops' })).json()
    expect(created).toMatchObject({ object: 'webhook_endpoint', url: 'https://example.com/hooks', events: ['case.created'], description: 'ops', status: 'enabled', livemode: false })
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/)
    const shown = (await call('GET', `/v1/webhooks/${created.id}`)).json()
    expect(shown.secret).toBeUndefined()
    expect((await call('GET', '/v1/webhooks?limit=100')).json().data.map((e: { id: string }) => e.id)).toContain(created.id)
    expect((await call('POST', `/v1/webhooks/${created.id}`, { events: ['case.created', 'rule.triggered'] })).json().events).toEqual(['case.created', 'rule.triggered'])
    expect((await call('DELETE', `/v1/webhooks/${created.id}`)).json()).toEqual({ object: 'webhook_endpoint', id: created.id, deleted: true })
    expect((await call('GET', `/v1/webhooks/${created.id}`)).statusCode).toBe(404)

    const scope = { tenant: app.identity.defaultTenant, mode: 'test' as const }
    const trail = await eventually(async () => {
      const entries = await auditEntries(app.state, scope, { objectId: created.id })
      return entries.length === 3 ? entries : undefined
    }, 10000, 'three audit entries')
    expect(trail.map(e => e.action)).toEqual(['webhook_endpoint.created', 'webhook_endpoint.updated', 'webhook_endpoint.deleted'])
    expect(trail.every(e => e.actor.startsWith('key_') && e.trace_id?.startsWith('trc_'))).toBe(true)
    expect(JSON.stringify(trail)).not.toContain(created.secret)
  })

  it('needs webhooks:manage', async () => {
    storeApiKey(app.state, 'sk_test_noweb00000000000000000', { id: 'key_nw', name: 'n', tenant_id: app.identity.defaultTenant, livemode: false, scopes: ['score:write'], created_ms: 0 })
    expect((await call('GET', '/v1/webhooks', undefined, 'sk_test_noweb00000000000000000')).json().error.code).toBe('insufficient_scope')
    expect((await call('POST', '/v1/webhooks', { url: 'https://example.com/x', events: ['case.created'] }, 'sk_test_noweb00000000000000000')).statusCode).toBe(403)
  })

  it('keeps tenants apart: no access to another tenant\'s endpoints, no delivery of its events', async () => {
    const other = (await createTenant(app)).keys.test
    const mine = (await call('POST', '/v1/webhooks', { url: receiver.url.replace('/hooks', '/mine'), events: ['rule.triggered'] })).json()
    const theirs = (await call('POST', '/v1/webhooks', { url: receiver.url.replace('/hooks', '/theirs'), events: ['rule.triggered'] }, other)).json()
    expect((await call('GET', `/v1/webhooks/${mine.id}`, undefined, other)).statusCode).toBe(404)
    expect((await call('GET', '/v1/webhooks?limit=100', undefined, other)).json().data.map((e: { id: string }) => e.id)).toEqual([theirs.id])
    const myTrace = await flag('u-tenant-mine')
    const theirTrace = (await call('POST', '/v1/score', { event: 'payment', amount: 20_000, user_id: 'u-tenant-theirs' }, other)).json().trace_id
    const mineGot = await eventually(() => [...receiver.accepted(r => r.event.data.trace_id === myTrace).values()][0], 10000, 'my event')
    const theirsGot = await eventually(() => [...receiver.accepted(r => r.event.data.trace_id === theirTrace).values()][0], 10000, 'their event')
    expect(verifyWebhookSignature(mineGot.body, mineGot.signature, mine.secret, 300, Math.floor(now / 1000))).toBe(true)
    expect(verifyWebhookSignature(mineGot.body, mineGot.signature, theirs.secret, 300, Math.floor(now / 1000))).toBe(false)
    expect(verifyWebhookSignature(theirsGot.body, theirsGot.signature, theirs.secret, 300, Math.floor(now / 1000))).toBe(true)
    expect(receiver.requests.filter(r => r.event.data.trace_id === myTrace)).toHaveLength(1)
    await call('DELETE', `/v1/webhooks/${mine.id}`)
    await call('DELETE', `/v1/webhooks/${theirs.id}`, undefined, other)
  })

  it('rotates the secret: both secrets sign for 24 h, then only the new one', async () => {
    const endpoint = (await call('POST', '/v1/webhooks', { url: receiver.url, events: ['rule.triggered'] })).json()
    const rotated = (await call('POST', `/v1/webhooks/${endpoint.id}/rotate_secret`)).json()
    expect(rotated.secret).not.toBe(endpoint.secret)
    expect(rotated.previous_secret_expires).toBe(Math.floor(now / 1000) + 86400)
    const delivered = async (trace: string) => eventually(() => [...receiver.accepted(r => r.event.data.trace_id === trace).values()][0], 10000, 'delivery')

    const during = await delivered(await flag('u-rot-1'))
    const t = Math.floor(now / 1000)
    expect(during.signature.match(/v1=/g)).toHaveLength(2)
    expect(verifyWebhookSignature(during.body, during.signature, endpoint.secret, 300, t)).toBe(true)
    expect(verifyWebhookSignature(during.body, during.signature, rotated.secret, 300, t)).toBe(true)

    now += 86_400_000 + 1000
    const after = await delivered(await flag('u-rot-2'))
    const t2 = Math.floor(now / 1000)
    expect(after.signature.match(/v1=/g)).toHaveLength(1)
    expect(verifyWebhookSignature(after.body, after.signature, rotated.secret, 300, t2)).toBe(true)
    expect(verifyWebhookSignature(after.body, after.signature, endpoint.secret, 300, t2)).toBe(false)
    const actions = (await auditEntries(app.state, { tenant: app.identity.defaultTenant, mode: 'test' }, { objectId: endpoint.id })).map(e => e.action)
    expect(actions).toContain('webhook_endpoint.secret_rotated')
    await call('DELETE', `/v1/webhooks/${endpoint.id}`)
  })
})

describe('delivery durability', () => {
  it('dead-letters after 12 failed attempts, onto the dead-letter topic', async () => {
    const fast = await startTestApp({ ...webhookEnv(receiver), WEBHOOK_BACKOFF_SCALE: '0.00002' })
    try {
      const endpoint = (await call('POST', '/v1/webhooks', { url: receiver.url.replace('/hooks', '/always-500'), events: ['rule.triggered'] }, undefined, fast)).json()
      receiver.respond = r => ({ status: r.event.data.rule_id !== undefined && deadTrace === r.event.data.trace_id ? 500 : 200 })
      let deadTrace = ''
      deadTrace = await flag('u-dead', fast)
      const dead = await eventually(async () => (await call('GET', `/v1/webhooks/${endpoint.id}/deliveries?status=failed`, undefined, undefined, fast)).json().data[0], 30000, 'dead-lettered')
      expect(dead).toMatchObject({ attempts_count: 12, last_error: 'HTTP 500', next_attempt: null })
      const letters: string[] = []
      const sub = await fast.log.subscribe({ group: 'dlq-reader', topics: [fast.topics.webhookDeadLetters], onBatch: async rs => { for (const r of rs) letters.push(JSON.parse(r.value.toString()).id) } })
      await eventually(() => letters.includes(dead.id) || undefined, 10000, 'dead letter on its topic')
      await sub.close()
    } finally {
      receiver.respond = () => ({ status: 200 })
      await fast.close()
    }
  })

  it('loses nothing when the delivery process restarts mid-retry', async () => {
    const env = { ...webhookEnv(receiver), DATA_DIR: tempDir() }
    let first: App | undefined = await startTestApp(env)
    try {
      const endpoint = (await call('POST', '/v1/webhooks', { url: receiver.url, events: ['rule.triggered'] }, undefined, first)).json()
      await receiver.down()
      const traces = [await flag('u-restart-1', first), await flag('u-restart-2', first)]
      await eventually(async () => {
        const pending = (await call('GET', `/v1/webhooks/${endpoint.id}/deliveries?status=pending`, undefined, undefined, first)).json().data as Array<{ attempts_count: number }>
        return pending.length === 2 && pending.every(d => d.attempts_count >= 2) ? true : undefined
      }, 20000, 'retrying')
      await first.close()
      first = undefined
      await receiver.up()
      const second = await startTestApp(env)
      try {
        await eventually(() => traces.every(t => receiver.accepted(r => r.event.data.trace_id === t).size === 1) || undefined, 30000, 'both delivered after the restart')
      } finally {
        await second.close()
      }
    } finally {
      await first?.close()
      await receiver.up()
    }
  })
})
