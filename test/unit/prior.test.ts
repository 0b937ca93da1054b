import { describe, expect, it } from 'vitest'
import { riskLevel, DEFAULT_THRESHOLDS } from '../../src/domain/decision/risk-level.js'
import type { Features, ScoreRequest } from '../../src/domain/decision/types.js'
import { extractFeatures, type FeatureInputs } from '../../src/domain/features/extract.js'
import { PRIOR, scoreFeatures } from '../../src/domain/model/model.js'

/**
 * What a new tenant meets (issue 35): the prior on its customers' ordinary life and on the attacks of the account
 * world, each event as the service would see it (its velocity before the event, its device history).
 */
const NOW = Date.parse('2026-11-23T12:00:00Z')
const MINUTE = 60_000
const DAY = 86_400_000
const paris = { country: 'FR', city: 'Paris', lat: 48.86, lon: 2.35 }

const features = (request: Partial<ScoreRequest>, velocity: Features = {}, over: Partial<FeatureInputs> = {}) => extractFeatures(
  { event: 'login', user_id: 'u_1', device_id: 'd_1', ip: '198.51.100.7', email: 'camille.martin@gmail.com', geo: paris, ...request },
  { velocity, deviceFirstSeenMs: undefined, countrySeenBefore: false, lastLocation: undefined, simSwap: undefined, ipReputation: undefined, nowMs: NOW, ...over })
const prior = (f: Features) => scoreFeatures(f, PRIOR)
const level = (f: Features) => riskLevel(prior(f).score, DEFAULT_THRESHOLDS)

/** A customer the service has known for weeks, on the phone it always uses, from its country. */
const regular: Features = { user_count_24h: 3, user_count_7d: 12, user_count_30d: 40, user_distinct_device_30d: 1, user_distinct_country_30d: 1, device_count_1h: 0, device_distinct_user_30d: 1, ip_count_1h: 0, ip_distinct_user_24h: 1, email_distinct_user_30d: 1 }
const onItsPhone = { deviceFirstSeenMs: NOW - 40 * DAY, countrySeenBefore: true, lastLocation: { point: paris, at_ms: NOW - DAY } }
/** Its payouts: 12 of about 200 (170..230) in 30 days. */
const payouts: Features = { user_event_count_30d: 12, user_event_sum_30d: 2400, user_event_sumsq_30d: 12 * 200 * 200 + 12 * 30 * 30 }

describe('the prior: a new tenant is neither blind nor hostile to its customers', () => {
  it('scores an event with no evidence either way at about the fraud rate of a consumer business (1 %)', () => {
    const plain = prior(features({ event: 'x', user_id: undefined, device_id: undefined, ip: undefined, email: undefined, geo: undefined }))
    expect(plain.score).toBeGreaterThan(0.005)
    expect(plain.score).toBeLessThan(0.02)
    expect(plain.signals).toEqual([])
  })

  it('approves ordinary life: a first login, the session after it, a shared tablet, a busy session, a carrier\'s address, a second phone', () => {
    const ordinary = {
      // the first event of a customer (every customer at a new tenant): a new user on a device never seen
      'first login of a new customer on a new device': features({}),
      // a minute later it pays: a session, a login's missing amount is no history to stand out from
      'its payment a minute after': features({ event: 'payment', amount: 1049, currency: 'SEK', custom: { card_fingerprint: 'c_1', merchant_id: 'm_1' } },
        { user_count_1h: 1, user_count_24h: 1, user_count_30d: 1, device_count_1h: 1, ip_count_1h: 1, ip_distinct_user_24h: 1, user_distinct_device_30d: 1, device_distinct_user_30d: 1 },
        { deviceFirstSeenMs: NOW - MINUTE }),
      // a couple sharing the tablet at home, each with its own account
      'a household tablet': features({ device_id: 'd_tablet' }, { ...regular, device_distinct_user_30d: 2, device_count_1h: 2 }, onItsPhone),
      // a busy session: login, a retry, two payments and a payout within the hour
      'the fourth event of a session': features({ event: 'payout', amount: 210, currency: 'EUR', custom: { merchant_id: 'bk_1' } }, { ...regular, ...payouts, user_count_1h: 3, device_count_1h: 3, ip_count_1h: 3 }, onItsPhone)
    }
    for (const [name, f] of Object.entries(ordinary)) {
      expect(level(f), name).toBe('low')
      expect(prior(f).signals, name).toEqual([])
    }
    // a mobile network's NAT, thousands of customers behind one address: approved, and said to be a busy, shared address
    const carrier = features({}, { ...regular, ip_count_1h: 400, ip_count_24h: 6000, ip_distinct_user_24h: 2000 }, onItsPhone)
    expect(level(carrier)).toBe('low')
    expect(['ip_fan_out', 'ip_velocity']).toEqual(expect.arrayContaining(prior(carrier).signals))
    // a customer's second phone: approved, and said to be a new device
    const secondPhone = features({ device_id: 'd_new' }, { ...regular, user_distinct_device_30d: 1 }, { countrySeenBefore: true })
    expect(level(secondPhone)).toBe('low')
    expect(prior(secondPhone).signals).toEqual(['new_device'])
  })

  it('a burst of logins from one IP over many accounts scores higher than an ordinary login, and a bot device logging into dozens of accounts is flagged', () => {
    const ordinary = prior(features({}, regular, onItsPhone)).score
    // stuffing with rotating devices: only the address's burst and a device new to each account betray it
    const rotating = features({ event: 'login', user_id: 'u_victim', device_id: 'd_bot_17', metadata: { outcome: 'failed' } },
      { ...regular, ip_count_1h: 80, ip_count_24h: 90, ip_distinct_user_24h: 60 }, { countrySeenBefore: true })
    expect(prior(rotating).score).toBeGreaterThan(ordinary)
    expect(prior(rotating).signals).toEqual(expect.arrayContaining(['new_device', 'ip_fan_out']))
    // one bot device over 40 accounts in a month, 60 attempts this hour
    const bot = features({ event: 'login', user_id: 'u_victim', device_id: 'd_bot', metadata: { outcome: 'failed' } },
      { ...regular, device_count_1h: 60, device_distinct_user_30d: 40, ip_count_1h: 80, ip_distinct_user_24h: 60 }, { countrySeenBefore: true })
    expect(level(bot)).not.toBe('low')
    expect(prior(bot).signals[0]).toBe('device_sharing')
  })

  it('a device logging into more accounts than a household, a card-testing burst and a takeover score above their ordinary twins', () => {
    const household = prior(features({ device_id: 'd_tablet' }, { ...regular, device_distinct_user_30d: 2 }, onItsPhone)).score
    const herder = prior(features({ device_id: 'd_tablet' }, { ...regular, device_distinct_user_30d: 6 }, onItsPhone))
    expect(herder.score).toBeGreaterThan(household + 0.02)
    expect(herder.signals).toContain('device_sharing')

    // 25 small payments from one account and device within the hour, new cards each time: a small amount is no
    // evidence of honesty
    const payment = (n: number) => features({ event: 'payment', amount: 1.5, currency: 'EUR', custom: { card_fingerprint: `c_${n}`, merchant_id: 'm_1' } },
      { ...regular, user_count_1h: n, device_count_1h: n, ip_count_1h: n }, onItsPhone)
    const testing = prior(payment(25))
    expect(testing.score).toBeGreaterThan(prior(payment(1)).score * 20)
    expect(testing.signals[0]).toBe('velocity')

    // a takeover: the customer's usual payout amount ...
    const usual = prior(features({ event: 'payout', amount: 200, currency: 'EUR', custom: { merchant_id: 'bk_1' } }, { ...regular, ...payouts }, onItsPhone))
    // ... against five times it, to a new beneficiary, from a device the customer never used, 1,000 km away an hour later
    const takeover = prior(features({ event: 'payout', amount: 1000, currency: 'EUR', device_id: 'd_other', geo: { country: 'FR', lat: 43.3, lon: 5.37 }, custom: { merchant_id: 'bk_mule' } },
      { ...regular, ...payouts }, { countrySeenBefore: true, lastLocation: { point: paris, at_ms: NOW - 30 * MINUTE } }))
    expect(takeover.score).toBeGreaterThan(usual.score * 10)
    expect(takeover.signals).toEqual(expect.arrayContaining(['new_device', 'impossible_travel', 'amount_anomaly']))
  })

  it('reads an amount in euros whatever its currency: 1,049 kronor weigh as 91 euros, not as 1,049', () => {
    const inKronor = prior(features({ event: 'payment', amount: 1049, currency: 'SEK' }, regular, onItsPhone)).score
    const inEuros = prior(features({ event: 'payment', amount: 91.2, currency: 'EUR' }, regular, onItsPhone)).score
    expect(inKronor).toBeCloseTo(inEuros, 3)
    expect(prior(features({ event: 'payment', amount: 1049, currency: 'EUR' }, regular, onItsPhone)).score).toBeGreaterThan(inKronor)
  })
})
