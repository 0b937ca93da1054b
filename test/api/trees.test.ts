import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { scoreFeatures } from '../../src/domain/model/model.js'
import { TREE_INPUTS } from '../../src/domain/model/inputs.js'
import { modelRecord } from '../../src/domain/records/models.js'
import { auth, eventually, LIVE_KEY, settled, startTestApp, TEST_KEY } from '../support/app.js'

let app: App
const NOW = Date.parse('2026-11-23T12:00:00Z')
/** The service's clock: labels mature by when the service recorded a decision, so the test moves it. */
let now = NOW
const DAY = 86_400_000
const call = (method: 'GET' | 'POST', url: string, payload?: object, key?: string) => app.server.inject({ method, url, headers: auth(key), payload })
const score = async (body: object, key?: string) => {
  const res = await call('POST', '/v1/score', body, key)
  expect(res.statusCode).toBe(200)
  return res.json()
}
const recorded = async (traceId: string) => (await call('GET', `/v1/transactions/${traceId}`)).json()

beforeAll(async () => {
  app = await startTestApp({
    MODEL_PUBLISH_INTERVAL_MS: '100', LABEL_MATURITY_DAYS: '2', MODEL_MIN_FRAUDS: '10', MODEL_TRAINING_DAYS: '10', MODEL_NEGATIVE_SAMPLE_PERCENT: '50'
  }, { clock: () => now })
})
afterAll(async () => { await app.close() })

/** A payment's fields, and the hour of the day it is made at. */
type Payment = (i: number) => object & { hour: number }

/**
 * One day of a tenant's traffic, `daysAgo` before the service's clock `base`, scored with `key` (its mode): 16
 * ordinary payments, two more legitimate ones when `legit` is given, and when `frauds` is given, two frauds
 * labelled by a case disposition.
 */
async function trafficDay (key: string, base: number, daysAgo: number, frauds?: Payment, legit?: Payment) {
  const at = (hour: number) => {
    now = base - daysAgo * DAY + hour * 3_600_000 // the service records them then (an event_time alone would make them late)
    return Math.floor(now / 1000)
  }
  for (let i = 0; i < 16; i++) await score({ event: 'payment', amount: 20 + (i * 7) % 50, user_id: `u${users++}`, terminal_id: `t${i % 4}`, event_time: at(i % 12) }, key)
  for (let i = 0; legit !== undefined && i < 2; i++) {
    const { hour, ...body } = legit(i)
    await score({ event: 'payment', user_id: `u${users++}`, terminal_id: `t${2 + i}`, ...body, event_time: at(hour) }, key)
  }
  for (let i = 0; frauds !== undefined && i < 2; i++) {
    const { hour, ...body } = frauds(i)
    const fraud = await score({ event: 'payment', user_id: `u${users++}`, terminal_id: `t${i}`, ...body, event_time: at(hour) }, key)
    const c = (await call('POST', '/v1/cases', { trace_id: fraud.trace_id, reason: 'chargeback' }, key)).json()
    expect((await call('POST', `/v1/cases/${c.id}/disposition`, { outcome: 'fraud', analyst: 'ana' }, key)).statusCode).toBe(200)
  }
}
let users = 0
/** Frauds of large amounts: what the first trees learn. */
const large: Payment = i => ({ amount: 600 + i * 150, hour: 3 + i })
/**
 * Moves the maturity horizon to two days before `daysAgo`, then half a day further: each decision once the
 * pipeline settled (every label in before its decision matures). A refresh reads the training rows committed
 * before the batch that started it, so the second one's refresh sees the decisions the first one matured.
 */
async function moveHorizon (key: string, base: number, daysAgo: number) {
  for (const d of [daysAgo, daysAgo - 0.5]) {
    await settled(app)
    await score({ event: 'payment', amount: 30, user_id: `u${users++}`, event_time: Math.floor((now = base - d * DAY) / 1000) }, key)
  }
}
const settingsOf = async (key?: string) => (await call('GET', '/v1/risk_settings', undefined, key)).json()
const audited = async (version: string, key?: string) => (await call('GET', `/v1/audit?object_id=${version}`, undefined, key)).json().data as Array<{ action: string, data: Record<string, any> }>

describe('gradient-boosted trees from dispositions', () => {
  it('are trained off the request path once enough frauds matured, serve once they rank the decisions matured since at least as well as the linear model\'s scores, and explain with risk-raising signals only', async () => {
    // days 17..13: the first trees are trained once their 10 frauds matured
    for (let day = 17; day >= 13; day--) await trafficDay(TEST_KEY, NOW, day, large)
    await moveHorizon(TEST_KEY, NOW, 10)
    // in shadow: the linear model keeps serving until the decisions after their horizon mature
    const shadow = await eventually(async () => {
      const s = await settingsOf()
      return s.challenger?.version === 'trees-1' ? s : undefined
    }, 20000, 'the first trees in shadow')
    expect(shadow.challenger).toMatchObject({ status: 'shadow', evaluation: null })
    expect(shadow.model.version).toMatch(/^prior-/)

    for (let day = 8; day >= 2; day--) await trafficDay(TEST_KEY, NOW, day, large)
    await moveHorizon(TEST_KEY, NOW, 0)
    const settings = await eventually(async () => {
      const s = await settingsOf()
      return /^trees-\d+$/.test(s.model.version) ? s : undefined
    }, 20000, 'trees')
    const version = settings.model.version as string
    expect(version).toBe('trees-1')
    expect(settings.model.rolled_back).toBeNull()
    // compared with the scores the linear model served on the decisions matured after its horizon
    const promoted = (await audited('trees-1')).find(e => e.action === 'model.promoted')!
    expect(promoted.data).toMatchObject({ promoted: true })
    expect(promoted.data.frauds).toBeGreaterThanOrEqual(10)
    expect(promoted.data.challenger_ap).toBeGreaterThanOrEqual(promoted.data.champion_ap)

    const high = await score({ event: 'payment', amount: 700, user_id: 'u-new-high', terminal_id: 't3' })
    const low = await score({ event: 'payment', amount: 35, user_id: 'u-new-low', terminal_id: 't3' })
    expect(high.score).toBeGreaterThan(0.5)
    expect(low.score).toBeLessThan(0.2)
    expect(high.signals).toContain('high_amount')
    expect(low.signals).not.toContain('high_amount')
    // the stored decision re-evaluates to its score with the version it recorded
    const stored = await recorded(high.trace_id)
    expect(stored.evaluation.model_version).toBe(version)
    const model = await app.modelRegistry.version({ tenant: app.identity.defaultTenant, mode: 'test' }, version)
    expect(scoreFeatures(stored.evaluation.features, model!).score).toBe(high.score)
    // the live mode learned nothing
    expect((await call('GET', '/v1/risk_settings', undefined, LIVE_KEY)).json().model.version).not.toMatch(/^trees/)
  })

  it('are rejected when they rank the decisions matured since worse than the linear model\'s scores, and the linear model goes on learning and being published', async () => {
    // the live mode, a month later: large frauds first; then frauds of ordinary amounts from throwaway mailboxes
    // and an address abroad, which the trees never saw and the linear model's prior weighs, among customers'
    // larger payments, which the trees take for frauds
    const base = NOW + 40 * DAY
    for (let day = 17; day >= 13; day--) await trafficDay(LIVE_KEY, base, day, large)
    await moveHorizon(LIVE_KEY, base, 10)
    await eventually(async () => (await settingsOf(LIVE_KEY)).challenger?.version === 'trees-1', 20000, 'the first trees in shadow')
    const disposable: Payment = i => ({ amount: 30 + i * 20, email: `x${users}@mailinator.com`, geo: { country: 'SE', ip_country: 'NG' }, hour: 8 + i })
    const larger: Payment = i => ({ amount: 300 + i * 50, hour: 5 + i })
    for (let day = 8; day >= 3; day--) await trafficDay(LIVE_KEY, base, day, disposable, larger)
    await moveHorizon(LIVE_KEY, base, 1)
    const rejected = await eventually(async () => (await audited('trees-1', LIVE_KEY)).find(e => e.action === 'model.rejected'), 20000, 'the first trees rejected')
    expect(rejected.data).toMatchObject({ promoted: false })
    expect(rejected.data.frauds).toBeGreaterThanOrEqual(10)
    expect(rejected.data.challenger_ap).toBeLessThan(rejected.data.champion_ap)
    await settled(app) // every label of those decisions learned and published
    const before = (await settingsOf(LIVE_KEY)).model
    expect(before.version).toMatch(/^prior-/)

    // decisions after the rejection mature: the linear model learns them and publishes them
    for (let i = 0; i < 5; i++) await score({ event: 'payment', amount: 25 + i, user_id: `u${users++}`, event_time: Math.floor((now = base - 0.4 * DAY + i * 3_600_000) / 1000) }, LIVE_KEY)
    await score({ event: 'payment', amount: 30, user_id: `u${users++}`, event_time: Math.floor((now = base + 2 * DAY) / 1000) }, LIVE_KEY)
    const after = await eventually(async () => {
      const m = (await settingsOf(LIVE_KEY)).model
      return m.trained_labels >= before.trained_labels + 5 ? m : undefined
    }, 20000, 'a linear version learned after the rejection')
    expect(after.version).toMatch(/^prior-[\d-]+\.online-\d+$/)
    expect(after.version).not.toBe(before.version)
  })

  it('show a rollback in the risk settings: the version it came back from and why', async () => {
    const scope = { tenant: app.identity.defaultTenant, mode: 'test' as const }
    const trees = (version: string) => ({ kind: 'trees' as const, version, inputs: TREE_INPUTS.map(i => i.name), forest: { base: -2, trees: [] } })
    const record = { tenant_id: scope.tenant, mode: scope.mode, trained: 1, trained_through_ms: NOW, created_ms: NOW }
    await app.log.append(app.topics.models, [modelRecord({ ...record, model: trees('trees-98'), rollback: true, rolled_back: { from: 'trees-99', reason: 'quality' } })])
    const model = await eventually(async () => {
      const m = (await call('GET', '/v1/risk_settings')).json().model
      return m.version === 'trees-98' ? m : undefined
    }, 20000, 'the rollback active')
    expect(model.rolled_back).toEqual({ from: 'trees-99', reason: 'quality' })
  })
})
