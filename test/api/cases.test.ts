import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { storeApiKey } from '../../src/stores/api-keys.js'
import { auth, eventually, LIVE_KEY, startTestApp } from '../support/app.js'

let app: App
let now = Date.parse('2026-11-22T12:00:00Z')
const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, key?: string) =>
  app.server.inject({ method, url, headers: auth(key), ...(payload === undefined ? {} : { payload }) })
const score = async (payload: object) => (await call('POST', '/v1/score', payload)).json()
const openCase = async (subjects: object) => (await call('POST', '/v1/cases', { subjects })).json()
const dispose = (id: string, outcome: string, extra: object = {}) => call('POST', `/v1/cases/${id}/disposition`, { outcome, analyst: 'ana', ...extra })

beforeAll(async () => { app = await startTestApp({}, { clock: () => now }) })
afterAll(async () => { await app.close() })

describe('case transitions', () => {
  it('allows a chargeback after safe or fraud and refuses every other change of a closed case with 409', async () => {
    const c = await openCase({ user_id: 'u-t1' })
    expect((await dispose(c.id, 'safe')).json()).toMatchObject({ status: 'closed', outcome: 'safe' })
    expect((await dispose(c.id, 'fraud')).json().error).toMatchObject({ code: 'invalid_transition' })
    expect((await call('POST', `/v1/cases/${c.id}/assign`, { assignee: 'bo' })).json().error).toMatchObject({ code: 'case_closed' })
    const chargeback = await dispose(c.id, 'chargeback', { reason: 'issuer notice' })
    expect(chargeback.json()).toMatchObject({ status: 'closed', outcome: 'chargeback' })
    expect((await dispose(c.id, 'chargeback')).statusCode).toBe(409)
    expect(chargeback.json().history.map((h: { outcome?: string }) => h.outcome ?? null)).toEqual([null, 'safe', 'chargeback'])
  })

  it('validates bodies, says 404 for unknown cases, 409 for a second case of the same trace', async () => {
    expect((await dispose('case_nope', 'fraud')).json().error).toMatchObject({ code: 'resource_missing' })
    expect((await dispose('case_nope', 'maybe')).json().error).toMatchObject({ code: 'parameter_invalid', param: 'outcome' })
    expect((await call('POST', '/v1/cases/case_nope/disposition', { outcome: 'fraud' })).json().error).toMatchObject({ code: 'parameter_missing', param: 'analyst' })
    expect((await call('POST', '/v1/cases', {})).json().error).toMatchObject({ code: 'parameter_missing' })
    expect((await call('POST', '/v1/cases', { trace_id: 'trc_unknown' })).json().error).toMatchObject({ code: 'resource_missing', param: 'trace_id' })
    const d = await score({ event: 'login', user_id: 'u-t2' })
    const first = await call('POST', '/v1/cases', { trace_id: d.trace_id })
    expect(first.json()).toMatchObject({ trace_id: d.trace_id, subjects: { user_id: 'u-t2' }, opened_by: 'analyst' })
    expect((await call('POST', '/v1/cases', { trace_id: d.trace_id })).json().error).toMatchObject({ code: 'resource_exists' })
  })

  it('lists cases with filters and pagination', async () => {
    const ids = [(await openCase({ email: 'l1@example.com' })).id, (await openCase({ email: 'l2@example.com' })).id]
    await call('POST', `/v1/cases/${ids[1]}/assign`, { assignee: 'zed' })
    const assigned = (await call('GET', '/v1/cases?assignee=zed')).json()
    expect(assigned).toMatchObject({ object: 'list', has_more: false })
    expect(assigned.data.map((c: { id: string }) => c.id)).toEqual([ids[1]])
    const page1 = (await call('GET', '/v1/cases?status=open&limit=1')).json()
    expect(page1).toMatchObject({ has_more: true })
    const page2 = (await call('GET', `/v1/cases?status=open&limit=1&starting_after=${page1.data[0].id}`)).json()
    expect(page2.data[0].id > page1.data[0].id).toBe(true)
    expect((await call('GET', '/v1/cases?status=pending')).json().error.param).toBe('status')
  })

  it('keeps the decision\'s score on the case; filters by score range and rule, and orders by score', async () => {
    const flags = [await score({ event: 'payment', amount: 20_000, user_id: 'u-order-1' }), await score({ event: 'payment', amount: 20_000, user_id: 'u-order-2', email: 'x@mailinator.com', ip: '10.9.9.9' })]
    const cases = await Promise.all(flags.map(f => eventually(async () => (await call('GET', `/v1/cases?trace_id=${f.trace_id}`)).json().data[0] as { id: string, score: number }, 10000, 'case')))
    expect(cases.map(c => c.score)).toEqual(flags.map(f => f.score))
    const [low, high] = [...cases].sort((a, b) => a.score - b.score)
    expect(low!.score).toBeLessThan(high!.score)
    const byScore = (await call('GET', '/v1/cases?status=open&rule=amount_over_10000&order=score&limit=100')).json()
    const order = byScore.data.map((c: { id: string }) => c.id)
    expect(order.indexOf(high!.id)).toBeLessThan(order.indexOf(low!.id))
    expect(byScore.data.every((c: { rules: string[] }) => c.rules.includes('amount_over_10000'))).toBe(true)
    const scores = byScore.data.map((c: { score: number }) => c.score)
    expect(scores).toEqual([...scores].sort((a: number, b: number) => b - a))
    const page1 = (await call('GET', '/v1/cases?status=open&order=score&limit=1')).json()
    const page2 = (await call('GET', `/v1/cases?status=open&order=score&limit=1&starting_after=${page1.data[0].id}`)).json()
    expect(page2.data[0].score).toBeLessThanOrEqual(page1.data[0].score)
    const ranged = (await call('GET', `/v1/cases?min_score=${high!.score.toFixed(6)}&limit=100`)).json().data.map((c: { id: string }) => c.id)
    expect(ranged).toContain(high!.id)
    expect(ranged).not.toContain(low!.id)
    expect((await call('GET', '/v1/cases?min_score=2')).json().error).toMatchObject({ code: 'parameter_invalid', param: 'min_score' })
    // A number's query text may be any JSON number, exponents included (schemathesis sent 1.18e-161); a non-finite one is refused.
    expect((await call('GET', '/v1/cases?min_score=1.1877589158094246e-161')).statusCode).toBe(200)
    expect((await call('GET', '/v1/cases?min_score=1e400')).json().error).toMatchObject({ code: 'parameter_invalid', param: 'min_score' })
  })

  it('needs cases:read to read and cases:write to change; live keys do not see sandbox cases', async () => {
    const c = await openCase({ user_id: 'u-scope' })
    storeApiKey(app.state, 'sk_test_casereaderkey000000000', { id: 'key_cr', name: 'r', tenant_id: app.identity.defaultTenant, livemode: false, scopes: ['cases:read'], created_ms: 0 })
    expect((await call('GET', `/v1/cases/${c.id}`, undefined, 'sk_test_casereaderkey000000000')).statusCode).toBe(200)
    expect((await call('POST', `/v1/cases/${c.id}/disposition`, { outcome: 'safe', analyst: 'x' }, 'sk_test_casereaderkey000000000')).json().error.code).toBe('insufficient_scope')
    expect((await call('POST', '/v1/overrides', { subject: 'user_id', value: 'x', action: 'flag' }, 'sk_test_casereaderkey000000000')).json().error.code).toBe('insufficient_scope')
    expect((await call('GET', `/v1/cases/${c.id}`, undefined, LIVE_KEY)).statusCode).toBe(404)
    expect((await call('POST', `/v1/cases/${c.id}/disposition`, { outcome: 'safe', analyst: 'x' }, LIVE_KEY)).statusCode).toBe(404)
  })
})

describe('Stage 3 gates from case outcomes', () => {
  it('a safe outcome demotes later flags of the same user for the configured time, and the decision names the gate', async () => {
    const flagged = await score({ event: 'payment', amount: 20_000, user_id: 'u-safe' })
    expect(flagged.action).toBe('flag')
    const c = await eventually(async () => (await call('GET', `/v1/cases?trace_id=${flagged.trace_id}`)).json().data[0], 10000, 'case for the flag')
    expect((await dispose(c.id, 'safe', { demote_for_hours: 2 })).statusCode).toBe(200)
    const demoted = await score({ event: 'payment', amount: 20_000, user_id: 'u-safe' })
    expect(demoted).toMatchObject({ action: 'approve', rules: ['amount_over_10000'], override_gate: `case_review:${c.id}` })
    const tx = (await call('GET', `/v1/transactions/${demoted.trace_id}`)).json()
    expect(tx.evaluation).toMatchObject({ base_action: 'flag', override_gate: `case_review:${c.id}` })
    expect((await score({ event: 'payment', amount: 20_000, user_id: 'someone-else' })).action).toBe('flag')
    now += 2 * 3_600_000 + 1
    const later = await score({ event: 'payment', amount: 20_000, user_id: 'u-safe' })
    expect(later.action).toBe('flag')
    expect(later.override_gate).toBeUndefined()
  })

  it('a fraud outcome rejects the card at once (Stage 3) and deny-lists it (Stage 1)', async () => {
    const c = await openCase({ card: 'fp-stolen' })
    expect((await dispose(c.id, 'fraud')).statusCode).toBe(200)
    const next = await score({ event: 'payment', amount: 10, card_fingerprint: 'fp-stolen' })
    expect(next.action).toBe('reject')
    await eventually(async () => (await call('GET', '/v1/lists/deny_cards')).json().items.includes('fp-stolen') || undefined, 10000, 'deny_cards entry')
    expect(await score({ event: 'payment', amount: 10, card_fingerprint: 'fp-stolen' })).toMatchObject({ action: 'reject', rules: ['deny_list'] })
    // each deny-list entry is its own change: the ruleset keeps its version
    const versions = await app.controlPlane.history({ tenant: app.identity.defaultTenant, mode: 'test' })
    expect(versions.map(v => v.change.type)).not.toContain('case.deny_listed')
  })
})

describe('admin overrides', () => {
  it('promote or demote until they expire, are listed, and stop when deleted', async () => {
    const expiresAt = Math.floor(now / 1000) + 60
    const created = await call('POST', '/v1/overrides', { subject: 'email', value: 'vip@example.com', action: 'approve', reason: 'vip', expires_at: expiresAt })
    expect(created.json()).toMatchObject({ object: 'override', subject: 'email', action: 'approve', expires_at: expiresAt, active: true })
    const id = created.json().id
    const big = { event: 'payment', amount: 20_000, email: 'vip@example.com' }
    expect(await score(big)).toMatchObject({ action: 'approve', override_gate: `admin_override:${id}` })
    now += 61_000
    expect((await score(big)).action).toBe('flag')
    expect((await call('GET', `/v1/overrides/${id}`)).json()).toMatchObject({ id, active: false })

    const block = (await call('POST', '/v1/overrides', { subject: 'device_id', value: 'd-bad', action: 'reject' })).json()
    expect((await score({ event: 'login', device_id: 'd-bad' })).action).toBe('reject')
    const listed = (await call('GET', '/v1/overrides?limit=100')).json()
    expect(listed.data.map((o: { id: string }) => o.id)).toEqual(expect.arrayContaining([id, block.id]))
    expect((await call('DELETE', `/v1/overrides/${block.id}`)).json()).toEqual({ object: 'override', id: block.id, deleted: true })
    expect((await score({ event: 'login', device_id: 'd-bad' })).action).toBe('approve')
    expect((await call('GET', `/v1/overrides/${block.id}`)).statusCode).toBe(404)
    expect((await call('POST', '/v1/overrides', { subject: 'device_id', value: 'x', action: 'reject', expires_at: 1 })).json().error.param).toBe('expires_at')
    expect((await call('POST', '/v1/overrides', { subject: 'phone', value: 'x', action: 'reject' })).json().error.param).toBe('subject')
  })
})
