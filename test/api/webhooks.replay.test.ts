import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { auditEntries } from '../../src/stores/audit.js'
import { auth, createTenant, eventually, startTestApp } from '../support/app.js'
import { Receiver } from '../support/receiver.js'
import { seedDeliveries } from '../support/deliveries.js'
import { webhookEnv } from '../contract/webhooks.flow.js'

let receiver: Receiver
let app: App
let tenant: string
const call = (method: 'GET' | 'POST', url: string, payload?: object, key?: string) =>
  app.server.inject({ method, url, headers: auth(key), ...(payload === undefined ? {} : { payload }) })
const newEndpoint = async (key?: string, path = '/hooks') => (await call('POST', '/v1/webhooks', { url: receiver.url.replace('/hooks', path), events: ['case.created'] }, key)).json() as { id: string }
const ids = (list: { data: Array<{ id: string }> }) => list.data.map(d => d.id)

beforeAll(async () => {
  receiver = await Receiver.start()
  app = await startTestApp(webhookEnv(receiver))
  tenant = app.identity.defaultTenant
})
afterAll(async () => {
  await app.close()
  await receiver.down()
})

describe('webhook deliveries: newest first, paged both ways', () => {
  it('lists newest first; starting_after goes to older ones, ending_before back to newer ones', async () => {
    const endpoint = await newEndpoint()
    const seeded = await seedDeliveries(app, tenant, endpoint.id, 25, n => n % 5 === 0 ? 'succeeded' : 'failed')
    const newestFirst = seeded.map(d => d.id).reverse()
    const first = (await call('GET', `/v1/webhooks/${endpoint.id}/deliveries?limit=10`)).json()
    expect(ids(first)).toEqual(newestFirst.slice(0, 10))
    expect(first.has_more).toBe(true)
    const second = (await call('GET', `/v1/webhooks/${endpoint.id}/deliveries?limit=10&starting_after=${first.data[9].id}`)).json()
    expect(ids(second)).toEqual(newestFirst.slice(10, 20))
    const last = (await call('GET', `/v1/webhooks/${endpoint.id}/deliveries?limit=10&starting_after=${second.data[9].id}`)).json()
    expect(ids(last)).toEqual(newestFirst.slice(20))
    expect(last.has_more).toBe(false)
    const back = (await call('GET', `/v1/webhooks/${endpoint.id}/deliveries?limit=10&ending_before=${last.data[0].id}`)).json()
    expect(ids(back)).toEqual(newestFirst.slice(10, 20))
    expect(back.has_more).toBe(true)
    const top = (await call('GET', `/v1/webhooks/${endpoint.id}/deliveries?limit=10&ending_before=${second.data[0].id}`)).json()
    expect(ids(top)).toEqual(newestFirst.slice(0, 10))
    expect(top.has_more).toBe(false)
    const failed = (await call('GET', `/v1/webhooks/${endpoint.id}/deliveries?limit=100&status=failed`)).json()
    expect(ids(failed)).toEqual(newestFirst.filter(id => seeded.find(d => d.id === id)!.status === 'failed'))
    const both = (await call('GET', `/v1/webhooks/${endpoint.id}/deliveries?starting_after=${first.data[0].id}&ending_before=${first.data[9].id}`)).json()
    // Both: the deliveries between the two, newest first.
    expect(ids(both)).toEqual(ids(first).slice(1, 9))
    expect(both.has_more).toBe(false)
  })
})

describe('webhook endpoint health', () => {
  it('says failing when none of the newest deliveries succeeded, though the endpoint is enabled', async () => {
    const failing = await newEndpoint(undefined, '/failing')
    await seedDeliveries(app, tenant, failing.id, 30, n => n < 5 ? 'succeeded' : 'failed')
    const shown = (await call('GET', `/v1/webhooks/${failing.id}`)).json()
    expect(shown.status).toBe('enabled')
    expect(shown.health).toEqual({ state: 'failing', window: 20, succeeded: 0, failed: 20, retrying: 0, waiting: 0, last_success: null })

    const mixed = await newEndpoint(undefined, '/mixed')
    const seeded = await seedDeliveries(app, tenant, mixed.id, 6, n => n === 5 ? 'pending' : n === 4 ? 'failed' : 'succeeded')
    const health = (await call('GET', `/v1/webhooks/${mixed.id}`)).json().health
    expect(health).toMatchObject({ state: 'degraded', window: 6, succeeded: 4, failed: 1, retrying: 1 })
    expect(health.last_success).toBe(Math.floor(seeded[3]!.attempts[0]!.at_ms / 1000))

    const healthy = await newEndpoint(undefined, '/healthy')
    await seedDeliveries(app, tenant, healthy.id, 3, () => 'succeeded')
    expect((await call('GET', `/v1/webhooks/${healthy.id}`)).json().health).toMatchObject({ state: 'healthy', window: 3, succeeded: 3 })

    const fresh = (await call('POST', '/v1/webhooks', { url: receiver.url, events: ['case.created'] })).json()
    expect(fresh.health).toEqual({ state: 'idle', window: 0, succeeded: 0, failed: 0, retrying: 0, waiting: 0, last_success: null })
    const listed = (await call('GET', '/v1/webhooks?limit=100')).json().data as Array<{ id: string, health: { state: string } }>
    expect(listed.find(e => e.id === failing.id)!.health.state).toBe('failing')
    expect(listed.find(e => e.id === mixed.id)!.health.state).toBe('degraded')
  })
})

describe('webhook replay', () => {
  it('answers the new delivery: a dlv_ id found by GET at once, replay_of the original, listed first, then delivered', async () => {
    const endpoint = await newEndpoint()
    const [original] = await seedDeliveries(app, tenant, endpoint.id, 3)
    const replayed = (await call('POST', `/v1/webhooks/${endpoint.id}/deliveries/${original!.id}/replay`)).json()
    expect(replayed).toMatchObject({ object: 'webhook_delivery', webhook_endpoint: endpoint.id, replay_of: original!.id, status: 'pending', attempts_count: 0, event: { id: original!.event_id } })
    expect(replayed.id).toMatch(/^dlv_/)
    expect((await call('GET', `/v1/webhooks/${endpoint.id}/deliveries/${replayed.id}`)).json()).toMatchObject({ id: replayed.id, replay_of: original!.id })
    expect(ids((await call('GET', `/v1/webhooks/${endpoint.id}/deliveries?limit=1`)).json())).toEqual([replayed.id])
    const done = await eventually(async () => {
      const d = (await call('GET', `/v1/webhooks/${endpoint.id}/deliveries/${replayed.id}`)).json()
      return d.status === 'succeeded' ? d : undefined
    }, 20000, 'the replay delivered')
    expect(done.attempts[0].status_code).toBe(200)
    expect(receiver.received.filter(r => r.event.id === original!.event_id)).toHaveLength(1)
    const trail = await auditEntries(app.state, { tenant, mode: 'test' }, { objectId: endpoint.id })
    expect(trail.find(e => e.action === 'webhook_delivery.replayed')?.data).toEqual({ delivery: original!.id, replay: replayed.id })
  })

  it('replays every failed delivery not replayed yet, 100 a call, newest first; then none', async () => {
    const endpoint = await newEndpoint(undefined, '/bulk')
    const seeded = await seedDeliveries(app, tenant, endpoint.id, 130, n => n % 10 === 0 ? 'succeeded' : 'failed')
    const failedNewestFirst = seeded.filter(d => d.status === 'failed').map(d => d.id).reverse()
    expect(failedNewestFirst).toHaveLength(117)
    const first = (await call('POST', `/v1/webhooks/${endpoint.id}/deliveries/replay`)).json()
    expect(first).toMatchObject({ object: 'list', has_more: true })
    expect(first.data.map((d: { replay_of: string }) => d.replay_of)).toEqual(failedNewestFirst.slice(0, 100))
    const second = (await call('POST', `/v1/webhooks/${endpoint.id}/deliveries/replay`, {})).json()
    expect(second.has_more).toBe(false)
    expect(second.data.map((d: { replay_of: string }) => d.replay_of)).toEqual(failedNewestFirst.slice(100))
    expect((await call('POST', `/v1/webhooks/${endpoint.id}/deliveries/replay`, {})).json()).toMatchObject({ data: [], has_more: false })
    const eventIds = new Set(seeded.filter(d => d.status === 'failed').map(d => d.event_id))
    await eventually(() => receiver.received.filter(r => eventIds.has(r.event.id)).length === 117 || undefined, 30000, 'all 117 replays delivered')
    // A replay that fails again is a dead letter of its own, waiting for the next "replay all failed".
  })

  it('replays the deliveries named, at most 100; another tenant\'s endpoint or deliveries are not found and nothing is replayed', async () => {
    const mine = await newEndpoint(undefined, '/named')
    const seeded = await seedDeliveries(app, tenant, mine.id, 5)
    const named = (await call('POST', `/v1/webhooks/${mine.id}/deliveries/replay`, { deliveries: [seeded[1]!.id, seeded[3]!.id] })).json()
    expect(named.data.map((d: { replay_of: string }) => d.replay_of)).toEqual([seeded[1]!.id, seeded[3]!.id])

    const other = await createTenant(app)
    const theirs = (await call('POST', '/v1/webhooks', { url: receiver.url.replace('/hooks', '/theirs'), events: ['case.created'] }, other.keys.test)).json()
    const theirDeliveries = await seedDeliveries(app, other.id, theirs.id, 3)
    const before = (await call('GET', `/v1/webhooks/${mine.id}/deliveries?limit=100`)).json().data.length
    // Their endpoint with my key, my endpoint with their deliveries, their endpoint with their deliveries and my key.
    expect((await call('POST', `/v1/webhooks/${theirs.id}/deliveries/replay`)).json().error.code).toBe('resource_missing')
    const mixed = await call('POST', `/v1/webhooks/${mine.id}/deliveries/replay`, { deliveries: [seeded[0]!.id, theirDeliveries[0]!.id] })
    expect(mixed.statusCode).toBe(409)
    expect(mixed.json().error).toMatchObject({ code: 'delivery_not_replayable', param: 'deliveries[1]' })
    expect(mixed.json().error.message).toContain(theirDeliveries[0]!.id)
    expect((await call('POST', `/v1/webhooks/${theirs.id}/deliveries/${theirDeliveries[0]!.id}/replay`)).statusCode).toBe(404)
    expect((await call('POST', `/v1/webhooks/${mine.id}/deliveries/${theirDeliveries[0]!.id}/replay`)).statusCode).toBe(404)
    expect((await call('GET', `/v1/webhooks/${mine.id}/deliveries?limit=100`)).json().data.length).toBe(before)
    expect((await call('GET', `/v1/webhooks/${theirs.id}/deliveries?limit=100`, undefined, other.keys.test)).json().data.length).toBe(3)

    const tooMany = await call('POST', `/v1/webhooks/${mine.id}/deliveries/replay`, { deliveries: Array.from({ length: 101 }, (_, i) => `dlv_${i}`) })
    expect(tooMany.json().error).toMatchObject({ code: 'parameter_invalid', param: 'deliveries' })
    // No body is {} (every failed one); a body of JSON null is a body, and not an object.
    const nullBody = await app.server.inject({ method: 'POST', url: `/v1/webhooks/${mine.id}/deliveries/replay`, headers: { ...auth(), 'content-type': 'application/json' }, payload: 'null' })
    expect(nullBody.statusCode).toBe(400)
  })

  it('refuses while the endpoint is disabled, or when it no longer takes the event type', async () => {
    const endpoint = await newEndpoint(undefined, '/paused')
    const [d] = await seedDeliveries(app, tenant, endpoint.id, 1)
    await call('POST', `/v1/webhooks/${endpoint.id}`, { status: 'disabled' })
    expect((await call('POST', `/v1/webhooks/${endpoint.id}/deliveries/replay`)).json().error.code).toBe('endpoint_disabled')
    await call('POST', `/v1/webhooks/${endpoint.id}`, { status: 'enabled', events: ['rule.triggered'] })
    expect((await call('POST', `/v1/webhooks/${endpoint.id}/deliveries/${d!.id}/replay`)).json().error).toMatchObject({ code: 'event_not_subscribed' })
  })
})
