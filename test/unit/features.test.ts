import { describe, expect, it } from 'vitest'
import { extractFeatures, type FeatureInputs } from '../../src/domain/features/extract.js'
import { countryMismatch, geoFacts, travelSpeedKmh } from '../../src/domain/features/geo.js'
import { accountAgeDays, emailDomain, isDisposableDomain } from '../../src/domain/features/identity.js'
import { learn, newLearner, snapshot } from '../../src/domain/model/learner.js'
import { LINEAR_INPUTS, inputValues } from '../../src/domain/model/inputs.js'
import { PRIOR, scoreFeatures } from '../../src/domain/model/model.js'

const NOW = Date.parse('2026-11-23T12:00:00Z')
const DAY = 86_400_000
const inputs = (over: Partial<FeatureInputs> = {}): FeatureInputs =>
  ({ velocity: {}, deviceFirstSeenMs: undefined, countrySeenBefore: false, lastLocation: undefined, simSwap: undefined, ipReputation: undefined, nowMs: NOW, ...over })

describe('Stage 2 features (pure)', () => {
  it('device: known after first seen, with its age', () => {
    const f = extractFeatures({ event: 'payment', user_id: 'u', device_id: 'd' }, inputs({ deviceFirstSeenMs: NOW - 3 * DAY }))
    expect(f).toMatchObject({ device_present: 1, device_known: 1, device_age_days: 3 })
    expect(extractFeatures({ event: 'payment', user_id: 'u', device_id: 'd' }, inputs())).toMatchObject({ device_known: 0 })
    // A backdated event: the device first seen after it was new then.
    expect(extractFeatures({ event: 'payment', user_id: 'u', device_id: 'd' }, inputs({ deviceFirstSeenMs: NOW + DAY }))).toMatchObject({ device_known: 0, device_age_days: 0 })
  })

  it('identity: email domain, disposable and free mail, account age from custom keys', () => {
    expect(emailDomain('A@Mailinator.COM')).toBe('mailinator.com')
    expect(isDisposableDomain('mailinator.com')).toBe(true)
    expect(extractFeatures({ event: 'signup', email: 'x@yopmail.com' }, inputs())).toMatchObject({ email_disposable: 1, email_free: 0 })
    expect(extractFeatures({ event: 'signup', email: 'x@gmail.com' }, inputs())).toMatchObject({ email_disposable: 0, email_free: 1 })
    expect(accountAgeDays({ account_created: (NOW - 2 * DAY) / 1000 }, NOW)).toBe(2)
    expect(accountAgeDays({ account_age_days: 400 }, NOW)).toBe(400)
    expect(accountAgeDays({ account_age_days: 'old' }, NOW)).toBeUndefined()
  })

  it("transaction patterns: amount against the 30-day mean and deviation of the user's events of the same kind", () => {
    // 10 earlier payments of 20 and 40 -> mean 30, std 10; 40 logins (no amount) besides them count for nothing
    const velocity = { user_count_30d: 50, user_sum_30d: 300, user_sumsq_30d: 5 * 400 + 5 * 1600, user_event_count_30d: 10, user_event_sum_30d: 300, user_event_sumsq_30d: 5 * 400 + 5 * 1600 }
    // the deviation is floored at half the mean (15): a short history's spread is no measure of ordinary variation
    const f = extractFeatures({ event: 'payment', user_id: 'u', amount: 90 }, inputs({ velocity }))
    expect(f).toMatchObject({ user_amount_mean_30d: 30, user_amount_std_30d: 10, amount_z: 4, amount_ratio: 3 })
    expect(extractFeatures({ event: 'payment', user_id: 'u', amount: 90 }, inputs())).toMatchObject({ amount_z: 0, amount_ratio: 1 })
    // a customer whose history is logins only: the first payment has no profile to stand out from
    const loginsOnly = { user_count_30d: 5, user_event_count_30d: 0 }
    expect(extractFeatures({ event: 'payment', user_id: 'u', amount: 490 }, inputs({ velocity: loginsOnly }))).toMatchObject({ amount_z: 0, amount_ratio: 1 })
    // an event without an amount stands out from nothing
    expect(extractFeatures({ event: 'login', user_id: 'u' }, inputs({ velocity }))).toMatchObject({ amount_z: 0, amount_ratio: 1 })
  })

  it('merchant risk: frauds among the merchant transactions older than 7 days', () => {
    const velocity = { merchant_count_30d: 50, merchant_count_7d: 10, 'label.merchant_count_30d': 12, 'label.merchant_count_7d': 2 }
    expect(extractFeatures({ event: 'payment', custom: { terminal_id: 'T1' } }, inputs({ velocity }))).toMatchObject({ merchant_risk_30d: 0.25, merchant_frauds_7d: 2 })
  })

  it('geo: mismatch between named countries, consistent country, impossible travel', () => {
    expect(countryMismatch(geoFacts({ country: 'FR', ip_country: 'fr' }))).toBe(0)
    expect(countryMismatch(geoFacts({ country: 'FR', ip_country: 'NG' }))).toBe(1)
    const paris = { lat: 48.86, lon: 2.35 }
    const newYork = { lat: 40.71, lon: -74.0 }
    expect(travelSpeedKmh({ point: paris, at_ms: NOW - 3_600_000 }, newYork, NOW)).toBeGreaterThan(5000)
    expect(travelSpeedKmh({ point: paris, at_ms: NOW - 2 * DAY }, newYork, NOW)).toBeLessThan(200)
    // a backdated event two days before its user's last position: travel between them, in either order of time
    expect(travelSpeedKmh({ point: paris, at_ms: NOW + 2 * DAY }, newYork, NOW)).toBeLessThan(200)
    expect(travelSpeedKmh({ point: paris, at_ms: NOW + 3_600_000 }, newYork, NOW)).toBeGreaterThan(5000)
    const f = extractFeatures({ event: 'login', user_id: 'u', geo: { country: 'US', lat: newYork.lat, lon: newYork.lon } },
      inputs({ lastLocation: { point: paris, at_ms: NOW - 3_600_000 }, countrySeenBefore: true, velocity: { user_distinct_country_30d: 1 } }))
    expect(f).toMatchObject({ impossible_travel: 1, consistent_geo: 1, geo_mismatch: 0 })
  })

  it('SIM swap: recent flag for 3 days, confidence fading over 14', () => {
    const at = (daysAgo: number) => extractFeatures({ event: 'login', user_id: 'u' }, inputs({ simSwap: { confidence: 0.8, at_ms: NOW - daysAgo * DAY } }))
    expect(at(1)).toMatchObject({ sim_swap: 1 })
    expect(at(1).sim_swap_confidence).toBeCloseTo(0.8 * 13 / 14, 4)
    expect(at(7)).toMatchObject({ sim_swap: 0, sim_swap_confidence: 0.4 })
    expect(at(20)).toMatchObject({ sim_swap: 0, sim_swap_confidence: 0 })
  })
})

describe('model', () => {
  it('reports the spec signal codes when their features contribute', () => {
    const f = extractFeatures({ event: 'login', user_id: 'u', device_id: 'd', ip: '203.0.113.9', geo: { country: 'FR', ip_country: 'NG' } },
      inputs({ ipReputation: 0.9, simSwap: { confidence: 0.9, at_ms: NOW - 3_600_000 }, deviceFirstSeenMs: NOW - DAY, velocity: { user_count_1h: 20 } }))
    const { signals, score } = scoreFeatures(f, PRIOR)
    for (const code of ['velocity', 'sim_swap', 'sim_swap_confidence', 'geo_mismatch', 'ip_reputation_v3']) expect(signals).toContain(code)
    expect(signals).not.toContain('known_device')
    expect(score).toBeGreaterThan(0.9)
    const calm = scoreFeatures(extractFeatures({ event: 'login', user_id: 'u', device_id: 'd', geo: { country: 'FR' } },
      inputs({ deviceFirstSeenMs: NOW - DAY, countrySeenBefore: true, velocity: { user_distinct_country_30d: 1, user_count_30d: 5 } })), PRIOR)
    // what lowers the score (a known device, a consistent country) is never reported as a risk signal
    expect(calm.signals).toEqual([])
    expect(calm.score).toBeLessThan(0.02)
    // no amount lowers the amount inputs' contribution below zero: not high_amount
    expect(scoreFeatures(extractFeatures({ event: 'x' }, inputs({})), PRIOR).signals).not.toContain('high_amount')
  })

  it('learns online: fraud labels on a pattern raise its score above a pattern labelled legitimate; versions are named after the prior', () => {
    const s = newLearner(PRIOR)
    const fraud = inputValues({ email_present: 1, email_free: 1, amount: 300 })
    const legit = inputValues({ email_present: 1, amount: 300 })
    const before = { fraud: scoreFeatures({ email_free: 1, amount: 300 }, snapshot(s)).score, legit: scoreFeatures({ amount: 300 }, snapshot(s)).score }
    for (let i = 0; i < 1000; i++) { learn(s, legit, 0, i); if (i % 10 === 0) learn(s, fraud, 1, i) }
    const model = snapshot(s)
    expect(model.version).toBe(`${PRIOR.version}.online-1`)
    expect(Object.keys(model.weights)).toEqual(LINEAR_INPUTS.map(i => i.name))
    expect(scoreFeatures({ email_free: 1, amount: 300 }, model).score).toBeGreaterThan(before.fraud + 0.2)
    const after = { fraud: scoreFeatures({ email_free: 1, amount: 300 }, model).score, legit: scoreFeatures({ amount: 300 }, model).score }
    expect(after.fraud - after.legit).toBeGreaterThan(before.fraud - before.legit + 0.2)
    expect(s.trained).toBe(1100)
    expect(s.trainedThroughMs).toBe(999)
  })
})
