import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { auth, eventually, LIVE_KEY, startTestApp } from '../support/app.js'

let app: App
const call = (url: string, key?: string) => app.server.inject({ method: 'GET', url, headers: auth(key) })
const score = async (body: object) => (await app.server.inject({ method: 'POST', url: '/v1/score', headers: auth(), payload: body })).json() as { trace_id: string }

beforeAll(async () => { app = await startTestApp() })
afterAll(async () => { await app.close() })

describe('GET /v1/transactions', () => {
  it('lists decisions newest first, by subject, paged, in the caller\'s mode only', async () => {
    const a1 = await score({ event: 'login', user_id: 'u-search-a', email: 'a@example.com', device_id: 'd-1' })
    const b1 = await score({ event: 'login', user_id: 'u-search-b', email: 'b@example.com' })
    const a2 = await score({ event: 'payment', amount: 10, currency: 'EUR', user_id: 'u-search-a', card_fingerprint: 'card-9' })
    const ids = (url: string) => call(url).then(r => r.json().data.map((t: { id: string }) => t.id))
    expect(await ids('/v1/transactions?user_id=u-search-a')).toEqual([a2.trace_id, a1.trace_id])
    expect(await ids('/v1/transactions?email=b@example.com')).toEqual([b1.trace_id])
    expect(await ids('/v1/transactions?device_id=d-1')).toEqual([a1.trace_id])
    expect(await ids('/v1/transactions?card=card-9')).toEqual([a2.trace_id])
    expect(await ids('/v1/transactions?user_id=u-search-a&email=a@example.com')).toEqual([a1.trace_id])
    const first = (await call('/v1/transactions?limit=1')).json()
    expect(first).toMatchObject({ object: 'list', has_more: true })
    expect(first.data[0]).toMatchObject({ object: 'transaction', id: a2.trace_id, decision: { trace_id: a2.trace_id } })
    expect(await ids(`/v1/transactions?limit=2&starting_after=${a2.trace_id}`)).toEqual([b1.trace_id, a1.trace_id])
    expect((await call('/v1/transactions?user_id=u-search-a', LIVE_KEY)).json().data).toEqual([])
    expect((await call('/v1/transactions?colour=red')).statusCode).toBe(400)
  })
})

describe('GET /v1/transactions/{id}: async_checks', () => {
  it('carries the score.async report of a decision linked to other accounts', async () => {
    await score({ event: 'login', user_id: 'u-link-1', device_id: 'dev-shared-1' })
    const second = await score({ event: 'login', user_id: 'u-link-2', device_id: 'dev-shared-1' })
    const checks = await eventually(async () => {
      const c = (await call(`/v1/transactions/${second.trace_id}`)).json().async_checks as Array<{ check: string, linked_users: number, shared: Record<string, number> }>
      return c.length > 0 ? c : undefined
    }, 20000, 'the link analysis report')
    expect(checks[0]).toMatchObject({ check: 'link_analysis', linked_users: 1, shared: { device: 1 } })
    expect((await call(`/v1/transactions/${second.trace_id}`, LIVE_KEY)).statusCode).toBe(404)
  })
})
