import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { auth, startTestApp } from '../support/app.js'

let app: App
const call = (method: 'GET' | 'POST', url: string, payload?: object) => app.server.inject({ method, url, headers: auth(), payload })
const score = async (body: object) => (await call('POST', '/v1/score', body)).json()

beforeAll(async () => { app = await startTestApp() })
afterAll(async () => { await app.close() })

describe('decision.counterfactual', () => {
  it('on a flag: the largest amount that would have been approved, which is approved, and recorded with the decision', async () => {
    const flagged = await score({ event: 'payment', amount: 20_000, user_id: 'u-cf-1' })
    expect(flagged.action).toBe('flag')
    expect(flagged.counterfactual).toMatchObject({ action: 'approve', changes: [{ field: 'amount', from: 20_000 }] })
    const to = flagged.counterfactual.changes[0].to
    expect(to).toBeLessThanOrEqual(10_000)
    expect((await score({ event: 'payment', amount: to, user_id: 'u-cf-2' })).action).toBe('approve')
    expect((await call('GET', `/v1/transactions/${flagged.trace_id}`)).json().decision.counterfactual).toEqual(flagged.counterfactual)
  })

  it('null when no change of the amount would approve (a deny-listed user); absent on approve', async () => {
    await call('POST', '/v1/lists/deny_users/items', { value: 'u-cf-denied' })
    const rejected = await score({ event: 'payment', amount: 50, user_id: 'u-cf-denied' })
    expect(rejected.action).toBe('reject')
    expect(rejected.counterfactual).toBeNull()
    expect((await call('GET', `/v1/transactions/${rejected.trace_id}`)).json().decision.counterfactual).toBeNull()
    const approved = await score({ event: 'payment', amount: 50, user_id: 'u-cf-3' })
    expect(approved.action).toBe('approve')
    expect(approved).not.toHaveProperty('counterfactual')
  })
})
