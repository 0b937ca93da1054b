import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { auth, eventually, LIVE_KEY, startTestApp } from '../support/app.js'

let app: App
const call = (method: 'GET' | 'POST', url: string, payload?: object, key?: string) =>
  app.server.inject({ method, url, headers: auth(key), ...(payload === undefined ? {} : { payload }) })

beforeAll(async () => { app = await startTestApp() })
afterAll(async () => { await app.close() })

describe('POST /v1/score/batch', () => {
  it('answers in order, isolates per-event errors, records every valid decision', async () => {
    const events = [
      { event: 'payment', amount: 20_000, user_id: 'b1' },
      { event: 'payment', amount: 'lots' },
      { amount: 5 },
      { event: 'login', user_id: 'b4', ip: '203.0.113.9' }
    ]
    const res = await call('POST', '/v1/score/batch', { events })
    expect(res.statusCode).toBe(200)
    const { object, data } = res.json()
    expect(object).toBe('list')
    expect(data).toHaveLength(4)
    expect(data[0]).toMatchObject({ action: 'flag', rules: ['amount_over_10000'] })
    expect(data[1]).toEqual({ error: { type: 'invalid_request_error', code: 'parameter_invalid', message: expect.any(String), param: 'events.1.amount' } })
    expect(data[2].error).toMatchObject({ code: 'parameter_missing', param: 'events.2.event' })
    expect(data[3]).toMatchObject({ action: 'approve' })
    for (const d of [data[0], data[3]]) {
      const tx = (await call('GET', `/v1/transactions/${d.trace_id}`)).json()
      expect(tx.decision).toEqual(d)
    }
    expect(new Set([data[0].trace_id, data[3].trace_id]).size).toBe(2)
  })

  it('refuses 501 events with 400 batch_too_large, and accepts 500', async () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => ({ event: 'login', user_id: `bulk-${i}` }))
    expect((await call('POST', '/v1/score/batch', { events: many(501) })).json().error).toMatchObject({ code: 'batch_too_large', param: 'events' })
    const ok = (await call('POST', '/v1/score/batch', { events: many(500) })).json()
    expect(ok.data).toHaveLength(500)
    expect(ok.data.every((d: { trace_id?: string }) => d.trace_id?.startsWith('trc_'))).toBe(true)
    expect((await call('POST', '/v1/score/batch', { events: [] })).statusCode).toBe(400)
    expect((await call('POST', '/v1/score/batch', [{ event: 'x' }])).json().error.code).toBe('parameter_invalid')
  })
})

describe('billing and audit', () => {
  it('bills live decisions by trace id, never sandbox ones', async () => {
    const live = (await call('POST', '/v1/score', { event: 'payment', amount: 10 }, LIVE_KEY)).json()
    const sandbox = (await call('POST', '/v1/score', { event: 'payment', amount: 10 })).json()
    const billed: Array<{ key: string, trace_id: string }> = []
    const sub = await app.log.subscribe({ group: 'billing-reader', topics: [app.topics.billing], onBatch: async rs => { for (const r of rs) billed.push({ key: r.key, ...JSON.parse(r.value.toString()) }) } })
    try {
      await eventually(() => billed.some(b => b.trace_id === live.trace_id) || undefined, 10000, 'live decision billed')
      await new Promise(resolve => setTimeout(resolve, 200))
      expect(billed.find(b => b.trace_id === live.trace_id)!.key).toBe(`${app.identity.defaultTenant}:${live.trace_id}`)
      expect(billed.some(b => b.trace_id === sandbox.trace_id)).toBe(false)
    } finally {
      await sub.close()
    }
  })

  it('GET /v1/audit?trace_id= shows the decision and the changes about it; object_id shows the changes of an object', async () => {
    const flagged = (await call('POST', '/v1/score', { event: 'payment', amount: 50_000, user_id: 'u-audit' })).json()
    const c = await eventually(async () => (await call('GET', `/v1/cases?trace_id=${flagged.trace_id}`)).json().data[0], 10000, 'case')
    const disposition = await call('POST', `/v1/cases/${c.id}/disposition`, { outcome: 'safe', analyst: 'ana' })
    const trail = await eventually(async () => {
      const d = (await call('GET', `/v1/audit?trace_id=${flagged.trace_id}`)).json().data
      return d.length >= 2 ? d : undefined
    }, 10000, 'audit trail')
    expect(trail.map((e: { action: string }) => e.action)).toEqual(['decision.created', 'case.disposition'])
    expect(trail[0]).toMatchObject({ object: 'audit_entry', object_id: flagged.trace_id, data: { action: 'flag', rules: ['amount_over_10000'] } })
    expect(trail[1]).toMatchObject({ object_id: c.id, trace_id: disposition.headers['x-trace-id'], subject_trace_id: flagged.trace_id, data: { outcome: 'safe', analyst: 'ana' } })
    const byRequest = (await call('GET', `/v1/audit?trace_id=${disposition.headers['x-trace-id']}`)).json().data
    expect(byRequest.map((e: { action: string }) => e.action)).toEqual(['case.disposition'])

    await call('POST', '/v1/rules', { id: 'audited_rule', name: 'a', expression: 'request.amount > 5.0', action: 'flag' })
    const ruleTrail = await eventually(async () => (await call('GET', '/v1/audit?object_id=audited_rule')).json().data[0], 10000, 'rule audit')
    expect(ruleTrail).toMatchObject({ action: 'rule.upserted', object_type: 'rule', actor: expect.stringMatching(/^key_/) })
    expect((await call('GET', '/v1/audit')).json().error.code).toBe('parameter_missing')
    expect((await call('GET', `/v1/audit?trace_id=${flagged.trace_id}`, undefined, LIVE_KEY)).json().data).toEqual([])
  })
})
