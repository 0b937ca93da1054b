import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { openStateDb, type StateDb } from '../src/state/state-db.js'
import { VelocityStore } from '../src/state/velocity.js'
import { tempDir } from './support/app.js'

const scope = { tenant: 'ten_v', mode: 'test' as const }
const T0 = Date.parse('2026-11-22T10:59:30Z')

async function record (state: StateDb, store: VelocityStore, at: number, request = { event: 'payment', user_id: 'u', ip: '10.0.0.1', amount: 5 }) {
  const view = await store.view(scope, request, at)
  await state.committer.commit(view.incrementOps())
  view.release()
}

async function features (store: VelocityStore, at: number, request = { event: 'payment', user_id: 'u', ip: '10.0.0.1' }) {
  const view = await store.view(scope, request, at)
  const f: Record<string, number> = {}
  view.features(f)
  view.release()
  return f
}

describe('velocity counters', () => {
  it('counts a sliding 1 h window at minute resolution across the hour boundary', async () => {
    const state = await openStateDb(path.join(tempDir(), 'state'))
    const store = new VelocityStore(state)
    await record(state, store, T0 - 59 * 60_000) // 10:00:30, inside the window ending 10:59
    await record(state, store, T0)               // 10:59:30
    await record(state, store, T0 + 60_000)      // 11:00:30, next hour's record
    expect((await features(store, T0 + 60_000)).user_count_1h).toBe(2) // 10:00 slot has left the window
    expect((await features(store, T0 + 60_000)).ip_count_1h).toBe(2)
    expect((await features(store, T0)).user_count_1h).toBe(2)
    expect((await features(store, T0 + 3 * 3_600_000)).user_count_1h).toBe(0)
    await state.close()
  })

  it('sums count and amount over 24 h at hour resolution across the day boundary', async () => {
    const state = await openStateDb(path.join(tempDir(), 'state'))
    const store = new VelocityStore(state)
    const midnight = Date.parse('2026-11-23T00:10:00Z')
    await record(state, store, midnight - 23 * 3_600_000) // 01:10 the day before: inside
    await record(state, store, midnight - 25 * 3_600_000) // 23:10 two days before: outside
    await record(state, store, midnight)
    const f = await features(store, midnight)
    expect(f.user_count_24h).toBe(2)
    expect(f.user_amount_24h).toBe(10)
    await state.close()
  })

  it('loses no increment under concurrency and keeps every count after eviction and reopen', async () => {
    const dir = path.join(tempDir(), 'state')
    const state = await openStateDb(dir)
    const store = new VelocityStore(state, 1)
    await Promise.all(Array.from({ length: 200 }, (_, i) => record(state, store, T0, { event: 'payment', user_id: `u${i % 3}`, ip: '10.0.0.1', amount: 1 })))
    expect((await features(store, T0)).ip_count_1h).toBe(200)
    await state.close()
    const reopened = await openStateDb(dir)
    const fresh = new VelocityStore(reopened)
    const totals = await Promise.all(['u0', 'u1', 'u2'].map(async u => (await features(fresh, T0, { event: 'payment', user_id: u, ip: '10.0.0.1' })).user_count_1h))
    expect(totals).toEqual([67, 67, 66])
    expect((await features(fresh, T0)).ip_count_1h).toBe(200)
    await reopened.close()
  })
})
