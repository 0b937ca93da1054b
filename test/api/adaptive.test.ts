import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { PRIOR } from '../../src/domain/model/model.js'
import { auth, eventually, LIVE_KEY, startTestApp } from '../support/app.js'
import { type ServiceEvent, parseEvent } from '../../src/domain/records/events.js'

let app: App
const NOW = Date.parse('2026-11-23T12:00:00Z')
/** The service's clock: labels mature by when the service recorded a decision, so the learning test moves it. */
let now = NOW
const DAY = 86_400_000
const call = (method: 'GET' | 'POST', url: string, payload?: object, key?: string) => app.server.inject({ method, url, headers: auth(key), payload })
const score = async (body: object, key?: string) => {
  const res = await call('POST', '/v1/score', body, key)
  expect(res.statusCode).toBe(200)
  return res.json()
}
const recorded = async (traceId: string) => (await call('GET', `/v1/transactions/${traceId}`)).json()
const events: ServiceEvent[] = []
let stopEvents: () => Promise<void>

beforeAll(async () => {
  // The online model is what this file tests: no trees (test/api/trees.test.ts), whose first training would become
  // the tenant's model in a race with the online version the test waits for once 30 frauds have matured.
  app = await startTestApp({ MODEL_PUBLISH_INTERVAL_MS: '100', LABEL_MATURITY_DAYS: '2', MODEL_MIN_FRAUDS: '1000000' }, { clock: () => now })
  const sub = await app.log.subscribe({ group: 'test-adaptive-events', topics: [app.topics.events], onBatch: async rs => { for (const r of rs) events.push(parseEvent(r.value)) } })
  stopEvents = () => sub.close()
})
afterAll(async () => { await stopEvents(); await app.close() })

describe('signals: POST /v1/signals, the signals topic, signal.updated', () => {
  it('a reported SIM swap is seen by the next score (signals, features, rules) and announced as signal.updated', async () => {
    const before = await score({ event: 'login', user_id: 'u-sim', device_id: 'd-sim' })
    expect(before.signals).not.toContain('sim_swap')
    const res = await call('POST', '/v1/signals', { type: 'sim_swap', user_id: 'u-sim', confidence: 0.9 })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ object: 'signal', type: 'sim_swap', user_id: 'u-sim', confidence: 0.9, livemode: false })
    await call('POST', '/v1/rules', { id: 'sim_swap_payout', name: 'SIM swap', expression: 'signals.sim_swap_confidence > 0.8', action: 'flag' })
    const after = await score({ event: 'login', user_id: 'u-sim', device_id: 'd-sim' })
    expect(after.signals).toEqual(expect.arrayContaining(['sim_swap', 'sim_swap_confidence']))
    expect(after.score).toBeGreaterThan(before.score)
    expect(after.rules).toContain('sim_swap_payout')
    expect((await recorded(after.trace_id)).evaluation.features).toMatchObject({ sim_swap: 1, sim_swap_confidence: 0.9 })
    const updated = await eventually(() => events.find(e => e.type === 'signal.updated' && e.data.signal_id === res.json().id), 10000, 'signal.updated')
    expect(updated.data).toMatchObject({ type: 'sim_swap', user_id: 'u-sim', confidence: 0.9 })
    // other modes and tenants do not see it
    expect((await score({ event: 'login', user_id: 'u-sim', device_id: 'd-sim' }, LIVE_KEY)).signals).not.toContain('sim_swap')
    await call('POST', '/v1/rules', { id: 'sim_swap_payout', status: 'disabled' })
  })

  it('ip_reputation_v3 from the runtime-updatable reputation list (addresses and CIDR ranges)', async () => {
    expect((await call('POST', '/v1/signals', { type: 'ip_reputation', ip: '203.0.113.0/24', score: 0.95 })).statusCode).toBe(200)
    expect((await call('POST', '/v1/signals', { type: 'ip_reputation', ip: '203.0.113.8', score: 0.1 })).statusCode).toBe(200)
    const bad = await score({ event: 'payment', ip: '203.0.113.7', amount: 20 })
    expect(bad.signals).toContain('ip_reputation_v3')
    expect((await recorded(bad.trace_id)).evaluation.features.ip_reputation_v3).toBe(0.95)
    expect((await recorded((await score({ event: 'payment', ip: '203.0.113.8', amount: 20 })).trace_id)).evaluation.features.ip_reputation_v3).toBe(0.1)
    await call('POST', '/v1/signals', { type: 'ip_reputation', ip: '203.0.113.0/24', score: null })
    expect((await score({ event: 'payment', ip: '203.0.113.7', amount: 20 })).signals).not.toContain('ip_reputation_v3')
  })

  it('refuses malformed signals with the error envelope', async () => {
    expect((await call('POST', '/v1/signals', { type: 'sim_swap', user_id: 'u' })).json().error).toMatchObject({ code: 'parameter_missing', param: 'confidence' })
    expect((await call('POST', '/v1/signals', { type: 'ip_reputation', ip: '300.1.1.1', score: 1 })).json().error).toMatchObject({ code: 'parameter_invalid', param: 'ip' })
    expect((await call('POST', '/v1/signals', { type: 'sim_swap', user_id: 'u', confidence: 2 })).statusCode).toBe(400)
  })
})

describe('features from local state', () => {
  it('known device, consistent geo, geo mismatch and impossible travel', async () => {
    const paris = { country: 'FR', lat: 48.86, lon: 2.35 }
    const first = await recorded((await score({ event: 'login', user_id: 'u-geo', device_id: 'd-geo', geo: paris })).trace_id)
    expect(first.evaluation.features).toMatchObject({ device_known: 0, consistent_geo: 0 })
    const second = await score({ event: 'login', user_id: 'u-geo', device_id: 'd-geo', geo: paris })
    expect((await recorded(second.trace_id)).evaluation.features).toMatchObject({ device_known: 1, consistent_geo: 1 })
    expect(second.signals).not.toContain('known_device') // they lower the score: no risk signals
    expect(second.signals).not.toContain('consistent_geo')
    const away = await score({ event: 'login', user_id: 'u-geo', device_id: 'd-geo', geo: { country: 'US', ip_country: 'RU', lat: 40.71, lon: -74 } })
    expect(away.signals).toEqual(expect.arrayContaining(['impossible_travel', 'geo_mismatch']))
    expect(away.score).toBeGreaterThan(second.score)
  })

  it("merchant risk counts the merchant's transactions later labelled fraud, at their event time", async () => {
    const at = (daysAgo: number) => Math.floor((NOW - daysAgo * DAY) / 1000)
    const traces: string[] = []
    for (let i = 0; i < 4; i++) traces.push((await score({ event: 'payment', amount: 30, terminal_id: 'T-risky', event_time: at(20) })).trace_id)
    for (const trace of traces.slice(0, 2)) {
      const c = (await call('POST', '/v1/cases', { trace_id: trace, reason: 'chargeback' })).json()
      expect((await call('POST', `/v1/cases/${c.id}/disposition`, { outcome: 'fraud', analyst: 'ana' })).statusCode).toBe(200)
    }
    const f = await eventually(async () => {
      const features = (await recorded((await score({ event: 'payment', amount: 30, terminal_id: 'T-risky' })).trace_id)).evaluation.features
      return features['label.merchant_count_30d'] === 2 ? features : undefined
    }, 10000, 'label counters')
    expect(f.merchant_risk_30d).toBe(0.5)
    expect(f.merchant_count_30d).toBeGreaterThanOrEqual(traces.length)
  })

  it("the email domain's risk counts its events later labelled fraud: a ring's other accounts carry it", async () => {
    const at = (daysAgo: number) => Math.floor((NOW - daysAgo * DAY) / 1000)
    const traces: string[] = []
    for (let i = 0; i < 4; i++) traces.push((await score({ event: 'signup', user_id: `u-ring-${i}`, email: `member${i}@ring-domain.example`, event_time: at(20) })).trace_id)
    for (const trace of traces.slice(0, 2)) {
      const c = (await call('POST', '/v1/cases', { trace_id: trace, reason: 'synthetic identity' })).json()
      expect((await call('POST', `/v1/cases/${c.id}/disposition`, { outcome: 'fraud', analyst: 'ana' })).statusCode).toBe(200)
    }
    const f = await eventually(async () => {
      const features = (await recorded((await score({ event: 'login', user_id: 'u-ring-9', email: 'member9@ring-domain.example' })).trace_id)).evaluation.features
      return features['label.email_domain_count_30d'] === 2 ? features : undefined
    }, 10000, 'email domain label counters')
    expect(f.email_domain_count_30d).toBeGreaterThanOrEqual(traces.length)
    const other = (await recorded((await score({ event: 'login', user_id: 'u-elsewhere', email: 'someone@other-domain.example' })).trace_id)).evaluation.features
    expect(other['label.email_domain_count_30d'] ?? 0).toBe(0)
  })
})

describe('risk settings and the online model', () => {
  it('score -> risk level -> action is configurable per tenant and mode, versioned', async () => {
    const res = await call('POST', '/v1/risk_settings', { thresholds: { medium: 0.001, high: 0.9 }, actions: { low: 'approve', medium: 'flag', high: 'reject' } })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ object: 'risk_settings', thresholds: { medium: 0.001, high: 0.9 }, model: { version: expect.any(String) } })
    const d = await score({ event: 'payment', amount: 10, user_id: 'u-risk' })
    expect(d).toMatchObject({ risk_level: 'medium', action: 'flag' })
    expect((await score({ event: 'payment', amount: 10, user_id: 'u-risk' }, LIVE_KEY)).risk_level).toBe('low')
    expect((await call('POST', '/v1/risk_settings', { thresholds: { medium: 0.8, high: 0.7 } })).json().error).toMatchObject({ code: 'parameter_invalid', param: 'thresholds.medium' })
    expect((await call('POST', '/v1/risk_settings', { actions: { low: 'maybe' } })).statusCode).toBe(400)
    await call('POST', '/v1/risk_settings', { thresholds: { medium: 0.65, high: 0.75 } })
  })

  it('learns from fraud labels and matured decisions, publishes a new version that later decisions record', async () => {
    const at = (daysAgo: number) => {
      now = NOW - daysAgo * DAY // the service records them then (an event_time alone would make them late)
      return Math.floor(now / 1000)
    }
    const probe = { event: 'payment', amount: 75, email: 'p@gmail.com', event_time: at(0) }
    const trainedBefore = (await call('GET', '/v1/risk_settings')).json().model.trained_labels
    const before = await score(probe)
    const versionBefore = (await recorded(before.trace_id)).evaluation.model_version
    for (let i = 0; i < 30; i++) {
      const fraud = await score({ event: 'payment', amount: 75, email: `f${i}@gmail.com`, event_time: at(6) })
      const c = (await call('POST', '/v1/cases', { trace_id: fraud.trace_id, reason: 'chargeback' })).json()
      await call('POST', `/v1/cases/${c.id}/disposition`, { outcome: 'fraud', analyst: 'ana' })
      await score({ event: 'payment', amount: 75, email: `l${i}@example.com`, event_time: at(6) })
    }
    await score({ event: 'payment', amount: 1, event_time: at(0) }) // 6 days on, it moves the watermark: the unlabelled ones mature
    const settings = await eventually(async () => {
      const s = (await call('GET', '/v1/risk_settings')).json()
      return s.model.trained_labels >= trainedBefore + 60 ? s : undefined
    }, 15000, 'a model trained on 60 labels')
    expect(settings.model.version).toMatch(new RegExp(`^${PRIOR.version}\\.online-\\d+$`))
    expect(settings.model.version).not.toBe(versionBefore)
    const after = await score(probe)
    expect((await recorded(after.trace_id)).evaluation.model_version).toBe(settings.model.version)
    expect(after.score).toBeGreaterThan(before.score)
    // the live mode of the tenant learned nothing
    expect((await call('GET', '/v1/risk_settings', undefined, LIVE_KEY)).json().model.version).toBe(PRIOR.version)
  })
})

describe('deferred checks: async-scorer', () => {
  it('emits score.async with the trace_id for accounts tied by shared devices and cards (mule ring, synthetic identity)', async () => {
    const ring = [
      (await score({ event: 'signup', user_id: 'mule-1', device_id: 'd-ring', card_fingerprint: 'card-ring' })).trace_id,
      (await score({ event: 'signup', user_id: 'mule-2', device_id: 'd-ring' })).trace_id
    ]
    // The decisions may sit on different partitions, processed in any order. Whichever of the two the async-scorer
    // processes second is linked to the other through d-ring and gets its score.async (emitted after the graph is
    // committed): once it is out, both are in the graph, and mule-3 below sees the whole ring.
    const second = await eventually(() => events.find(e => e.type === 'score.async' && ring.includes(e.data.trace_id as string)), 10000, 'score.async of the ring\'s first two')
    expect(second.data).toMatchObject({ linked_users: 1, cluster_size: 2, shared: { device: 1 } })
    expect(second.data.patterns).toContain('shared_device')
    const loner = await score({ event: 'signup', user_id: 'loner', device_id: 'd-alone' })
    const third = await score({ event: 'payout', user_id: 'mule-3', card_fingerprint: 'card-ring', account_age_days: 2, amount: 500 })
    const event = await eventually(() => events.find(e => e.type === 'score.async' && e.data.trace_id === third.trace_id), 10000, 'score.async')
    expect(event.data).toMatchObject({ check: 'link_analysis', linked_users: 1, cluster_size: 3, shared: { card: 1 } })
    expect(event.data.patterns).toEqual(expect.arrayContaining(['shared_card', 'mule_ring', 'synthetic_identity']))
    expect(event.data.score as number).toBeGreaterThan(0.5)
    expect(events.some(e => e.type === 'score.async' && e.data.trace_id === loner.trace_id)).toBe(false)
  })
})
