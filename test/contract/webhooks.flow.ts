import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { verifyWebhookSignature } from '../../src/domain/webhooks/signature.js'
import { auth, eventually, LIVE_KEY } from '../support/app.js'
import { Receiver } from '../support/receiver.js'

/** Env a test app needs to deliver to the loopback receiver: its CA and egress allow-list, and a retry schedule shrunk 2,000 times. */
export const webhookEnv = (receiver: Receiver) => ({ ...receiver.env, WEBHOOK_BACKOFF_SCALE: '0.0005' })

/**
 * Webhook delivery end to end for one transport, to a real HTTPS receiver on loopback. `a` and `b` are two
 * instances of one deployment (the same one on the embedded transport): events come from both.
 */
export function webhookFlowSuite (transport: string, start: (receiver: Receiver) => Promise<{ a: App, b: App }>): void {
  describe(`webhook delivery: ${transport}`, () => {
    let receiver: Receiver
    let a: App
    let b: App
    beforeAll(async () => {
      receiver = await Receiver.start()
      ;({ a, b } = await start(receiver))
    })
    afterAll(async () => {
      await Promise.all([...new Set([a, b])].filter(x => x !== undefined).map(x => x.close()))
      await receiver?.down()
    })

    const call = (app: App, method: 'GET' | 'POST', url: string, payload?: object, key?: string) =>
      app.server.inject({ method, url, headers: auth(key), ...(payload === undefined ? {} : { payload }) })
    const register = async (app: App, events: string[], key?: string, path = '/hooks') => {
      const res = await call(app, 'POST', '/v1/webhooks', { url: receiver.url.replace('/hooks', path), events, description: 'test' }, key)
      expect(res.statusCode).toBe(200)
      return res.json() as { id: string, secret: string }
    }
    const flag = async (app: App, user: string, key?: string) => (await call(app, 'POST', '/v1/score', { event: 'payment', amount: 20_000, user_id: user }, key)).json().trace_id as string
    const forTrace = (trace: string) => (r: { event: { data: Record<string, unknown> } }) => r.event.data.trace_id === trace

    it('signs every delivery so the receiver verifies it, with the documented envelope', async () => {
      const endpoint = await register(a, ['rule.triggered', 'case.created'])
      expect(endpoint.secret).toMatch(/^whsec_/)
      const trace = await flag(b, 'u-sig')
      const got = await eventually(() => {
        const mine = [...receiver.accepted(forTrace(trace)).values()]
        return mine.length >= 2 ? mine : undefined
      }, 30000, 'rule.triggered and case.created delivered')
      expect(got.map(r => r.event.type).sort()).toEqual(['case.created', 'rule.triggered'])
      for (const r of got) {
        expect(Object.keys(r.event).sort()).toEqual(['created', 'data', 'id', 'livemode', 'type'])
        expect(r.event).toMatchObject({ livemode: false })
        expect(r.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/)
        expect(verifyWebhookSignature(r.body, r.signature, endpoint.secret)).toBe(true)
        expect(verifyWebhookSignature(r.body + ' ', r.signature, endpoint.secret)).toBe(false)
        expect(verifyWebhookSignature(r.body, r.signature, 'whsec_wrong')).toBe(false)
      }
    })

    it('keeps sandbox and live apart: each endpoint receives its own mode only', async () => {
      const live = await register(a, ['rule.triggered'], LIVE_KEY)
      const liveTrace = await flag(a, 'u-live', LIVE_KEY)
      const testTrace = await flag(b, 'u-test')
      await eventually(() => receiver.accepted(r => r.event.data.trace_id === liveTrace).size > 0 || undefined, 30000, 'live event delivered')
      await eventually(() => receiver.accepted(r => r.event.data.trace_id === testTrace).size > 0 || undefined, 30000, 'sandbox event delivered')
      expect([...receiver.accepted(r => r.event.data.trace_id === liveTrace).values()].every(r => r.event.livemode && verifyWebhookSignature(r.body, r.signature, live.secret))).toBe(true)
      expect([...receiver.accepted(r => r.event.data.trace_id === testTrace).values()].every(r => !r.event.livemode && !verifyWebhookSignature(r.body, r.signature, live.secret))).toBe(true)
      await call(a, 'POST', `/v1/webhooks/${live.id}`, { status: 'disabled' }, LIVE_KEY)
    })

    it('delivers every event once the receiver comes back, retrying with backoff', async () => {
      await receiver.down()
      const traces = await Promise.all([1, 2, 3, 4, 5].map(i => flag(i % 2 === 0 ? a : b, `u-down-${i}`)))
      const deliveries = async () => {
        const endpoints = (await call(a, 'GET', '/v1/webhooks?limit=100')).json().data as Array<{ id: string }>
        const lists = await Promise.all(endpoints.map(async e => (await call(a, 'GET', `/v1/webhooks/${e.id}/deliveries?status=pending&limit=100`)).json().data as Array<{ attempts_count: number, last_error: string }>))
        return lists.flat()
      }
      const failing = await eventually(async () => {
        const pending = await deliveries()
        return pending.length >= 5 && pending.every(d => d.attempts_count >= 2) ? pending : undefined
      }, 30000, 'failed attempts recorded')
      expect(failing[0]!.last_error).toBe('connection failed')
      await receiver.up()
      await eventually(() => traces.every(t => receiver.accepted(r => r.event.data.trace_id === t && r.event.type === 'rule.triggered').size === 1) || undefined, 60000, 'every event delivered after the receiver came back')
    })

    it('counts an answer slower than 5 s as a failure and retries', async () => {
      let slowOnce = true
      receiver.respond = r => {
        if (r.event.type === 'rule.triggered' && r.event.data.rule_id === 'amount_over_10000' && String(r.event.data.trace_id) === slowTrace && slowOnce) { slowOnce = false; return { status: 200, delayMs: 5500 } }
        return { status: 200 }
      }
      let slowTrace = ''
      slowTrace = await flag(a, 'u-slow')
      const delivered = await eventually(async () => {
        const endpoints = (await call(a, 'GET', '/v1/webhooks?limit=100')).json().data as Array<{ id: string }>
        for (const e of endpoints) {
          const list = (await call(a, 'GET', `/v1/webhooks/${e.id}/deliveries?status=succeeded&limit=100`)).json().data as Array<{ attempts: Array<{ error: string | null }>, event: { type: string } }>
          const hit = list.find(d => d.attempts.length >= 2 && d.attempts[0]!.error === 'timed out')
          if (hit !== undefined) return hit
        }
        return undefined
      }, 60000, 'a delivery that timed out, then succeeded')
      expect(delivered.attempts[0]!.error).toBe('timed out')
      receiver.respond = () => ({ status: 200 })
    })

    it('disables an endpoint that answers 410, dead-letters the delivery, and replays it once re-enabled', async () => {
      const gone = await register(b, ['rule.triggered'], undefined, '/gone')
      receiver.respond = r => ({ status: r.event.data.trace_id === goneTrace ? 410 : 200 })
      let goneTrace = ''
      goneTrace = await flag(a, 'u-gone')
      const endpoint = await eventually(async () => {
        const e = (await call(a, 'GET', `/v1/webhooks/${gone.id}`)).json()
        return e.status === 'disabled' ? e : undefined
      }, 30000, 'endpoint disabled after 410')
      expect(endpoint.disabled_reason).toMatch(/410/)
      const failed = await eventually(async () => (await call(b, 'GET', `/v1/webhooks/${gone.id}/deliveries?status=failed`)).json().data[0], 30000, 'dead-lettered delivery listed')
      expect(failed).toMatchObject({ status: 'failed', attempts_count: 1, last_error: 'HTTP 410' })
      // Listed on b; the replay below goes to a, whose own copy of the deliveries view may not have it yet.
      await eventually(async () => (await call(a, 'GET', `/v1/webhooks/${gone.id}/deliveries?status=failed`)).json().data[0], 30000, 'dead-lettered delivery listed on a')

      expect((await call(a, 'POST', `/v1/webhooks/${gone.id}/deliveries/${failed.id}/replay`)).json().error.code).toBe('endpoint_disabled')
      await call(a, 'POST', `/v1/webhooks/${gone.id}`, { status: 'enabled' })
      receiver.respond = () => ({ status: 200 })
      const replay = (await call(a, 'POST', `/v1/webhooks/${gone.id}/deliveries/${failed.id}/replay`)).json()
      expect(replay).toMatchObject({ object: 'webhook_delivery', status: 'pending', replay_of: failed.id })
      const replayed = await eventually(async () => {
        const list = (await call(b, 'GET', `/v1/webhooks/${gone.id}/deliveries?status=succeeded`)).json().data as Array<{ id: string, replay_of: string, event: { id: string } }>
        return list.find(d => d.id === replay.id)
      }, 30000, 'replayed delivery succeeded')
      expect(replayed).toMatchObject({ replay_of: failed.id, event: { id: failed.event.id } })
      expect(receiver.accepted(r => r.event.id === failed.event.id).size).toBe(1)
    })
  })
}
