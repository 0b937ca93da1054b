import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ScoreRequest } from '../../src/domain/decision/types.js'
import { openStateDb, type StateDb } from '../../src/stores/state-db.js'
import { VelocityStore } from '../../src/stores/velocity.js'
import { MODEL_NEEDS } from '../../src/domain/features/model-needs.js'
import type { VelocityNeed } from '../../src/domain/features/velocity-spec.js'
import { prefixRange, TAG } from '../../src/stores/keys.js'
import { scan, type WriteOp } from '../../src/stores/rocks.js'
import { tempDir } from '../support/app.js'

const scope = { tenant: 'ten_v', mode: 'test' as const }
const T0 = Date.parse('2026-11-22T10:59:30Z')
const MIN = 60_000
const HOUR = 3_600_000
const DAY = 24 * HOUR
const base: ScoreRequest = { event: 'payment', user_id: 'u', ip: '10.0.0.1', amount: 5 }

async function open () {
  const state = await openStateDb(path.join(tempDir(), 'state'))
  return { state, store: new VelocityStore(state) }
}

async function record (state: StateDb, store: VelocityStore, at: number, request: ScoreRequest = base, needs: readonly VelocityNeed[] = MODEL_NEEDS) {
  const view = await store.view(scope, request, at, needs)
  await state.committer.commit(view.incrementOps())
  view.release()
}

async function features (store: VelocityStore, at: number, request: ScoreRequest = base, needs: readonly VelocityNeed[] = MODEL_NEEDS) {
  const view = await store.view(scope, request, at, needs)
  const f: Record<string, number> = {}
  view.features(f)
  view.release()
  return f
}

describe('velocity counters', () => {
  it('counts a sliding 1 h window at minute resolution across the hour boundary', async () => {
    const { state, store } = await open()
    await record(state, store, T0 - 59 * MIN) // 10:00:30, inside the window ending 10:59
    await record(state, store, T0)             // 10:59:30
    await record(state, store, T0 + MIN)       // 11:00:30, next hour's record
    expect((await features(store, T0 + MIN)).user_count_1h).toBe(2) // the 10:00 slot has left the window
    expect((await features(store, T0 + MIN)).ip_count_1h).toBe(2)
    expect((await features(store, T0)).user_count_1h).toBe(2)
    expect((await features(store, T0 + 3 * HOUR)).user_count_1h).toBe(0)
    await state.close()
  })

  it('sums count and amount over 24 h at hour resolution across the day boundary', async () => {
    const { state, store } = await open()
    const midnight = Date.parse('2026-11-23T00:10:00Z')
    await record(state, store, midnight - 23 * HOUR) // 01:10 the day before: inside
    await record(state, store, midnight - 25 * HOUR) // 23:10 two days before: outside
    await record(state, store, midnight)
    const f = await features(store, midnight)
    expect(f.user_count_24h).toBe(2)
    expect(f.user_sum_24h).toBe(10)
    await state.close()
  })

  it('answers every window from 1m to 30d, for custom-key dimensions too', async () => {
    const { state, store } = await open()
    const needs: VelocityNeed[] = (['1m', '5m', '1h', '6h', '7d', '30d'] as const).map(window => ({ dimension: 'custom.terminal_id', aggregate: 'count', window }))
    const req: ScoreRequest = { event: 'payment', custom: { terminal_id: 'T-9' }, amount: 1 }
    for (const ago of [0, 3 * MIN, 30 * MIN, 5 * HOUR, 6 * DAY, 29 * DAY, 31 * DAY]) await record(state, store, T0 - ago, req, needs)
    const f = await features(store, T0 + 1, req, needs)
    expect(f).toMatchObject({
      'custom.terminal_id_count_1m': 1,
      'custom.terminal_id_count_5m': 2,
      'custom.terminal_id_count_1h': 3,
      'custom.terminal_id_count_6h': 4,
      'custom.terminal_id_count_7d': 5,
      'custom.terminal_id_count_30d': 6
    })
    await state.close()
  })

  it('counts distinct values of another dimension within the window', async () => {
    const { state, store } = await open()
    const needs: VelocityNeed[] = [{ dimension: 'user', aggregate: 'distinct', of: 'device', window: '24h' }, { dimension: 'ip', aggregate: 'distinct', of: 'user', window: '24h' }]
    for (const [ago, device] of [[0, 'd1'], [MIN, 'd2'], [2 * MIN, 'd1'], [30 * HOUR, 'd3']] as const) {
      await record(state, store, T0 - ago, { ...base, device_id: device }, needs)
    }
    const f = await features(store, T0 + 1, { ...base, device_id: 'd9' }, needs)
    expect(f.user_distinct_device_24h).toBe(2)
    expect(f.ip_distinct_user_24h).toBe(1)
    await state.close()
  })

  it('loses no increment under concurrency and keeps every count after eviction and reopen', async () => {
    const dir = path.join(tempDir(), 'state')
    const state = await openStateDb(dir)
    const store = new VelocityStore(state, { maxCached: 1 })
    await Promise.all(Array.from({ length: 200 }, (_, i) => record(state, store, T0, { event: 'payment', user_id: `u${i % 3}`, ip: '10.0.0.1', amount: 1 })))
    expect((await features(store, T0)).ip_count_1h).toBe(200)
    await state.close()
    const reopened = await openStateDb(dir)
    const fresh = await VelocityStore.open(reopened)
    const totals = await Promise.all(['u0', 'u1', 'u2'].map(async u => (await features(fresh, T0, { event: 'payment', user_id: u, ip: '10.0.0.1' })).user_count_1h))
    expect(totals).toEqual([67, 67, 66])
    expect((await features(fresh, T0)).ip_count_1h).toBe(200)
    expect((await features(fresh, T0)).ip_distinct_user_24h).toBe(3)
    await reopened.close()
  })

  it('keeps the cache near its bound once dirty records are written, and reads evicted ones back from the store', async () => {
    const state = await openStateDb(path.join(tempDir(), 'state'))
    const store = new VelocityStore(state, { maxCached: 50, flushIntervalMs: 3_600_000 })
    for (let i = 0; i < 40; i++) await record(state, store, T0, { event: 'payment', user_id: `u${i}`, ip: '10.0.0.1', amount: 1 })
    // Every record is dirty until written: none can go.
    expect(store.cachedRecords).toBeGreaterThan(100)
    await store.flush()
    expect(store.cachedRecords).toBeLessThanOrEqual(50)
    expect((await features(store, T0, { event: 'payment', user_id: 'u0', ip: '10.0.0.1' })).user_count_1h).toBe(1)
    expect((await features(store, T0)).ip_count_1h).toBe(40)
    await state.close()
  })
})

describe('velocity write-back', () => {
  const users = ['a', 'b', 'c', 'd']
  const event = (i: number): ScoreRequest => ({ event: 'payment', user_id: users[i % 4], device_id: `d${i % 7}`, ip: `10.0.0.${i % 3}`, amount: i % 13 })
  const snapshot = async (store: VelocityStore) => Promise.all(users.map(async u => features(store, T0, { event: 'payment', user_id: u, device_id: 'd0', ip: '10.0.0.0' })))

  it('keeps records out of the durable writes: one small journal entry per event, records written at a flush', async () => {
    const { state } = await open()
    const store = await VelocityStore.open(state, { flushIntervalMs: 60_000 })
    const view = await store.view(scope, base, T0, MODEL_NEEDS)
    const ops = view.incrementOps()
    expect(ops).toHaveLength(1)
    expect(ops[0]!.column).toBeUndefined()
    expect(ops[0]!.type === 'put' && ops[0]!.value.byteLength).toBeLessThan(400)
    await state.committer.commit(ops)
    view.release()
    const counterKeys = async () => { let n = 0; for await (const _ of scan(state.db, ...prefixRange(TAG.velocity), { column: state.velocity })) n++; return n }
    expect(await counterKeys()).toBe(0)
    await store.flush()
    expect(await counterKeys()).toBeGreaterThan(0)
    let journal = 0
    for await (const _ of scan(state.db, ...prefixRange(TAG.velocityJournal))) journal++
    expect(journal).toBe(0)
    await state.close()
  })

  it('writes back only the records an event changed, not those it loaded to read a window', async () => {
    const { state } = await open()
    const store = new VelocityStore(state, { flushIntervalMs: 0 })
    // At 11:00:30 the 1 h window reads the minute records of hours 10 and 11; the event increments hour 11's.
    await record(state, store, T0 + MIN)
    const minuteRecords: string[] = []
    for await (const [key] of scan(state.db, ...prefixRange(TAG.velocity), { column: state.velocity })) {
      if (key.toString().includes('\u0000user\u0000u\u0000m\u0000')) minuteRecords.push(key.toString().split('\u0000').at(-1)!)
    }
    expect(minuteRecords).toEqual([String(Math.floor((T0 + MIN) / HOUR))])
    await state.close()
  })

  it('after a crash, gives every entity the counts of a run without the crash', async () => {
    const dirs = [path.join(tempDir(), 'state'), path.join(tempDir(), 'state')]
    // One store flushes at every commit, the other never does before the "crash" (closing without a flush).
    const stores = await Promise.all(dirs.map(async (dir, i) => {
      const state = await openStateDb(dir)
      return { state, store: new VelocityStore(state, { flushIntervalMs: i === 0 ? 0 : 3_600_000 }) }
    }))
    for (const { state, store } of stores) {
      await Promise.all(Array.from({ length: 120 }, (_, i) => record(state, store, T0 - (i % 50) * MIN, event(i))))
    }
    const expected = await snapshot(stores[0]!.store)
    expect(await snapshot(stores[1]!.store)).toEqual(expected)
    for (const { state } of stores) await state.close()
    for (const dir of dirs) {
      const state = await openStateDb(dir)
      expect(await snapshot(await VelocityStore.open(state))).toEqual(expected)
      await state.close()
    }
    expect(expected[0]!.user_count_1h).toBe(30)
  })

  it('takes back the increments of a write that failed: neither the cache nor the records keep them', async () => {
    const dir = path.join(tempDir(), 'state')
    const state = await openStateDb(dir)
    const store = new VelocityStore(state, { flushIntervalMs: 0 })
    await record(state, store, T0)
    const view = await store.view(scope, base, T0, MODEL_NEEDS)
    const bad = { type: 'put', key: null, value: Buffer.from('x') } as unknown as WriteOp
    await expect(state.committer.commit([...view.incrementOps(), bad])).rejects.toThrow()
    view.release()
    expect((await features(store, T0)).user_count_1h).toBe(1)
    await record(state, store, T0)
    expect((await features(store, T0)).user_count_1h).toBe(2)
    await state.close()
    const reopened = await openStateDb(dir)
    expect((await features(await VelocityStore.open(reopened), T0)).user_count_1h).toBe(2)
    await reopened.close()
  })
})

describe('velocity records on disk', () => {
  it('reads records written in the dense form (every slot) as well as the sparse one', async () => {
    const dir = path.join(tempDir(), 'state')
    const state = await openStateDb(dir)
    const store = new VelocityStore(state, { flushIntervalMs: 0 })
    await record(state, store, T0)
    const stored: Array<[Buffer, Buffer]> = []
    for await (const kv of scan(state.db, ...prefixRange(TAG.velocity), { column: state.velocity })) stored.push(kv)
    const minute = stored.find(([k]) => k.toString().includes('\u0000user\u0000u\u0000m\u0000'))!
    expect(minute[1].byteLength).toBeLessThan(60)
    // The same minute record, dense: 60 slots of three float64.
    const dense = new Float64Array(60 * 3)
    const slot = new Date(T0).getUTCMinutes()
    dense.set([7, 35, 175], slot * 3)
    await state.committer.commit([{ type: 'put', key: minute[0], value: Buffer.from(dense.buffer), column: state.velocity }])
    await state.close()
    const reopened = await openStateDb(dir)
    const f = await features(await VelocityStore.open(reopened), T0)
    expect(f.user_count_1h).toBe(7)
    await reopened.close()
  })
})
