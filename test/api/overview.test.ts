import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { qualityStatus } from '../../src/domain/decision/overview.js'
import type { ModelRecord } from '../../src/domain/records/models.js'
import { auth, eventually, startTestApp } from '../support/app.js'
import { seedDeliveries } from '../support/deliveries.js'
import { Receiver } from '../support/receiver.js'
import { webhookEnv } from '../contract/webhooks.flow.js'

let receiver: Receiver
let app: App
let tenant: string
const call = (method: 'GET' | 'POST', url: string, payload?: object, key?: string) =>
  app.server.inject({ method, url, headers: auth(key), ...(payload === undefined ? {} : { payload }) })
const newEndpoint = async (path: string) => (await call('POST', '/v1/webhooks', { url: receiver.url.replace('/hooks', path), events: ['case.created'] })).json() as { id: string }

beforeAll(async () => {
  receiver = await Receiver.start()
  app = await startTestApp(webhookEnv(receiver))
  tenant = app.identity.defaultTenant
})
afterAll(async () => {
  await app.close()
  await receiver.down()
})

describe('GET /v1/overview for operators', () => {
  it('counts the top rules\' hits in twelve buckets of the window, from the decisions it draws', async () => {
    for (let i = 0; i < 3; i++) expect((await call('POST', '/v1/score', { event: 'payment', amount: 20_000, user_id: `u-ov-${i}` })).json().rules).toEqual(['amount_over_10000'])
    for (let i = 0; i < 2; i++) await call('POST', '/v1/score', { event: 'payment', amount: 20, user_id: `u-ov-small-${i}` })
    const o = await eventually(async () => { const b = (await call('GET', '/v1/overview')).json(); return b.decisions >= 5 ? b : undefined }, 10000, 'five decisions drawn')
    expect(o.rule_hits.bucket_seconds).toBe(300)
    const rule = o.rule_hits.rules.find((r: { id: string }) => r.id === 'amount_over_10000')
    expect(rule.hits).toBe(3)
    expect(rule.buckets).toHaveLength(12)
    expect(rule.buckets.reduce((n: number, c: number) => n + c, 0)).toBe(3)
    // A day's window: twelve buckets of two hours.
    expect((await call('GET', '/v1/overview?minutes=1440')).json().rule_hits.bucket_seconds).toBe(7200)
  })

  it('shows the open-case backlog as the queue summary counts it', async () => {
    await call('POST', '/v1/cases', { subjects: { user_id: 'u-ov-case' } })
    const summary = (await call('GET', '/v1/cases/summary')).json()
    expect(summary.open).toBeGreaterThan(0)
    const o = (await call('GET', '/v1/overview')).json()
    expect(o.cases).toEqual({ capped: false, open: summary.open, in_review: summary.in_review, oldest_unclosed_created: summary.oldest_unclosed_created, oldest_unclosed_age_seconds: expect.any(Number) })
  })

  it('counts dead letters not replayed (and of the last 24 hours) and names the failing endpoints first', async () => {
    const failing = await newEndpoint('/ov-failing')
    await seedDeliveries(app, tenant, failing.id, 5, () => 'failed', Date.now() - 2 * 86_400_000)
    await seedDeliveries(app, tenant, failing.id, 3, () => 'failed')
    const degraded = await newEndpoint('/ov-degraded')
    await seedDeliveries(app, tenant, degraded.id, 4, n => n === 3 ? 'failed' : 'succeeded')
    await newEndpoint('/ov-idle')
    const w = (await call('GET', '/v1/overview')).json().webhooks
    expect(w).toMatchObject({ endpoints: 3, failed_not_replayed: 9, failed_last_24h: 4, capped: false })
    expect(w.troubled).toEqual([
      { id: failing.id, url: expect.stringContaining('/ov-failing'), status: 'enabled', health: 'failing', failed: 8, retrying: 0 },
      { id: degraded.id, url: expect.stringContaining('/ov-degraded'), status: 'enabled', health: 'degraded', failed: 1, retrying: 0 }
    ])
  })

  it('says why quality is not measured yet', async () => {
    const o = (await call('GET', '/v1/overview')).json()
    expect(o.model.evaluation).toBeNull()
    expect(o.model.quality).toEqual({ state: 'no_matured_labels', matured_labels: 0, matured_through: null, challenger_trained_through: null })
  })

  it('leaves out the backlog and the webhooks for a key without cases:read and webhooks:manage', async () => {
    const key = (await call('POST', '/v1/keys', { name: 'dashboards', scopes: ['transactions:read'] })).json().secret as string
    const res = await call('GET', '/v1/overview', undefined, key)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ cases: null, webhooks: null, rule_hits: { bucket_seconds: 300 } })
  })
})

describe('qualityStatus', () => {
  const model = (over: Partial<ModelRecord>): ModelRecord => ({ tenant_id: 't', mode: 'test', model: {} as ModelRecord['model'], trained: 0, trained_through_ms: 0, created_ms: 0, ...over })
  it('names the step that waits', () => {
    expect(qualityStatus(undefined, undefined).state).toBe('no_matured_labels')
    expect(qualityStatus(model({ trained: 120, trained_through_ms: 86_400_000 }), undefined)).toEqual({ state: 'too_few_frauds', matured_labels: 120, matured_through: 86_400, challenger_trained_through: null })
    expect(qualityStatus(model({ trained: 120 }), model({ role: 'challenger', trained_through_ms: 3_600_000 }))).toMatchObject({ state: 'challenger_in_shadow', challenger_trained_through: 3600 })
    expect(qualityStatus(model({ trained: 120 }), model({ role: 'rejected', evaluation: { rows: 10, frauds: 3, champion_ap: 0.5, challenger_ap: 0.4, promoted: false } as ModelRecord['evaluation'] })).state).toBe('measured')
  })
})
