import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ScoreRequest } from '../../src/domain/decision/types.js'
import { countedBy, dimensionValue, isDimension, recordDimension } from '../../src/domain/features/velocity-spec.js'
import { MODEL_NEEDS } from '../../src/domain/features/model-needs.js'
import { extractFeatures, type FeatureInputs } from '../../src/domain/features/extract.js'
import { openStateDb, type StateDb } from '../../src/stores/state-db.js'
import { VelocityStore } from '../../src/stores/velocity/index.js'
import { tempDir } from '../support/app.js'

const scope = { tenant: 'ten_vf', mode: 'test' as const }
const T0 = Date.parse('2026-11-22T10:30:00Z')
const MIN = 60_000

async function open () {
  const state = await openStateDb(path.join(tempDir(), 'state'))
  return { state, store: new VelocityStore(state) }
}

/** Records the request, returning the features it read (its history before it) and when the user last saw its IP, card, payee. */
async function score (state: StateDb, store: VelocityStore, at: number, request: ScoreRequest) {
  const view = await store.view(scope, request, at, MODEL_NEEDS)
  const f = view.features()
  const seen = { ip: view.lastLinked('user', 'ip'), card: view.lastLinked('user', 'card'), merchant: view.lastLinked('user', 'merchant') }
  await state.committer.commit(view.incrementOps())
  view.release()
  return { f, seen }
}

describe('velocity dimensions beyond the built-in ones', () => {
  it('names networks, domains and filters', () => {
    const r: ScoreRequest = { event: 'login', user_id: 'u1', ip: '203.0.113.77', email: 'Ana.B@Example.com', metadata: { outcome: 'FAILED' } }
    expect(dimensionValue(r, 'ip24')).toBe('203.0.113/24')
    expect(dimensionValue(r, 'ip16')).toBe('203.0/16')
    expect(dimensionValue({ ...r, ip: '2001:db8:85a3::8a2e:370:7334' }, 'ip24')).toBe('2001:db8:85a3::/48')
    expect(recordDimension('constructor')).toBe('constructor')
    expect(dimensionValue({ ...r, ip: '2001:db8::1' }, 'ip24')).toBe('2001:db8:0::/48')
    expect(dimensionValue({ ...r, ip: '2001:db8::1' }, 'ip16')).toBe('2001:db8::/32')
    expect(dimensionValue({ ...r, ip: '::ffff:203.0.113.77' }, 'ip24')).toBe('203.0.113/24')
    expect(dimensionValue({ ...r, ip: 'not an address' }, 'ip24')).toBeUndefined()
    expect(dimensionValue({ ...r, ip: 'a:b' }, 'ip24')).toBeUndefined()
    expect(dimensionValue(r, 'email_domain')).toBe('example.com')
    expect(dimensionValue(r, 'failed.ip24')).toBe('203.0.113/24')
    expect(dimensionValue(r, 'inflow')).toBe('u1')
    expect(['failed.user', 'update.user', 'label.ip24', 'inflow', 'label.inflow', 'email_domain'].every(isDimension)).toBe(true)
    expect(isDimension('failed.nothing')).toBe(false)
    // a failed attempt counts in failed.*, any other does not; update.* counts account updates only
    expect(countedBy(r, 'failed.ip')).toBe(true)
    expect(countedBy({ ...r, metadata: { outcome: 'success' } }, 'failed.ip')).toBe(false)
    expect(countedBy({ ...r, metadata: { outcome: 7 } }, 'failed.ip')).toBe(false)
    expect(countedBy(r, 'update.user')).toBe(false)
    expect(countedBy({ ...r, event: 'account_update' }, 'update.user')).toBe(true)
    // an alias is read from the dimension it stands for, never counted by the request itself
    expect([countedBy(r, 'inflow'), recordDimension('inflow'), recordDimension('label.inflow'), recordDimension('ip24')]).toEqual([false, 'merchant', 'label.merchant', 'ip24'])
  })

  it('counts failed logins per address and network, account updates per user, and a payee\'s inflow at its own events', async () => {
    const { state, store } = await open()
    // a bot sprays failed logins over 12 accounts from 4 addresses of one /24
    for (let i = 0; i < 12; i++) {
      await score(state, store, T0 + i * MIN, { event: 'login', user_id: `victim${i}`, ip: `198.51.100.${i % 4}`, metadata: { outcome: 'failed' } })
    }
    await score(state, store, T0 + 12 * MIN, { event: 'login', user_id: 'victim0', ip: '198.51.100.9', metadata: { outcome: 'success' } })
    const next = await score(state, store, T0 + 13 * MIN, { event: 'login', user_id: 'other', ip: '198.51.100.0', metadata: { outcome: 'failed' } })
    expect(next.f['failed.ip_count_1h']).toBe(3)
    expect(next.f['failed.ip24_count_1h']).toBe(12) // the success is not a failure
    expect(next.f.ip24_count_1h).toBe(13)
    expect(next.f.ip24_distinct_user_24h).toBe(12)
    expect(next.f['failed.user_count_1h']).toBe(0)

    // an email change, then a payout: the change is counted at the payout
    await score(state, store, T0, { event: 'account_update', user_id: 'taken', email: 'new@example.com' })
    const payout = await score(state, store, T0 + 30 * MIN, { event: 'payout', user_id: 'taken', amount: 900, custom: { merchant_id: 'bk_1' } })
    expect(payout.f['update.user_count_24h']).toBe(1)

    // three accounts pay mule m1; at m1's own payout its inflow is three senders, 300 in all
    for (const sender of ['s1', 's2', 's3']) await score(state, store, T0 + MIN, { event: 'payout', user_id: sender, amount: 100, custom: { merchant_id: 'm1' } })
    const out = await score(state, store, T0 + 5 * MIN, { event: 'payout', user_id: 'm1', amount: 290, custom: { merchant_id: 'bk_m1' } })
    expect([out.f.inflow_count_24h, out.f.inflow_sum_7d, out.f.inflow_distinct_user_30d]).toEqual([3, 300, 3])
    // its own payout did not count as inflow to anyone but bk_m1
    const again = await score(state, store, T0 + 6 * MIN, { event: 'login', user_id: 'm1' })
    expect(again.f.inflow_count_24h).toBe(3)
    await state.close()
  })

  it('marks an address, card or payee new to an account that has a history, and reads the email\'s shape', async () => {
    const { state, store } = await open()
    const pay = (at: number, ip: string, card: string, merchant: string) =>
      score(state, store, at, { event: 'payment', user_id: 'c1', ip, amount: 20, email: 'x7kq2p9z41@example.com', custom: { card_fingerprint: card, merchant_id: merchant } })
    const first = await pay(T0, '192.0.2.1', 'c_a', 'm_a')
    const same = await pay(T0 + MIN, '192.0.2.1', 'c_a', 'm_a')
    const fresh = await pay(T0 + 2 * MIN, '192.0.2.200', 'c_b', 'm_b')
    const features = (r: typeof first, request: ScoreRequest) => extractFeatures(request, { velocity: r.f, lastSeenWithUser: r.seen, deviceFirstSeenMs: undefined, countrySeenBefore: false, lastLocation: undefined, simSwap: undefined, ipReputation: undefined, nowMs: T0 } satisfies FeatureInputs)
    const req = (ip: string, card: string, merchant: string): ScoreRequest => ({ event: 'payment', user_id: 'c1', ip, email: 'x7kq2p9z41@example.com', custom: { card_fingerprint: card, merchant_id: merchant }, metadata: { outcome: 'declined' } })
    const newness = (f: Record<string, number>) => [f.ip_new_to_user, f.card_new_to_user, f.merchant_new_to_user]
    expect(newness(features(first, req('192.0.2.1', 'c_a', 'm_a')))).toEqual([0, 0, 0]) // a first event has nothing to differ from
    expect(newness(features(same, req('192.0.2.1', 'c_a', 'm_a')))).toEqual([0, 0, 0])
    const f = features(fresh, req('192.0.2.200', 'c_b', 'm_b'))
    expect(newness(f)).toEqual([1, 1, 1])
    expect([f.event_kind, f.outcome_failed, f.email_local_length, f.email_local_digits]).toEqual([1, 1, 10, 0.5])
    expect(f.email_local_entropy).toBeGreaterThan(3)
    expect(extractFeatures({ event: 'constructor', email: 'anna@example.com' }, { velocity: {}, deviceFirstSeenMs: undefined, countrySeenBefore: false, lastLocation: undefined, simSwap: undefined, ipReputation: undefined, nowMs: T0 }).event_kind).toBe(0)
    await state.close()
  })
})
