import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ScoreRequest } from '../../src/domain/decision/types.js'
import { openStateDb, type StateDb } from '../../src/stores/state-db.js'
import { VelocityStore } from '../../src/stores/velocity/index.js'
import { MODEL_NEEDS } from '../../src/domain/features/model-needs.js'
import type { VelocityNeed } from '../../src/domain/features/velocity-spec.js'
import { prefixRange, TAG } from '../../src/stores/keys.js'
import { scan, type WriteOp } from '../../src/stores/rocks.js'
import { encodeLinks, linksSize } from '../../src/stores/velocity/links.js'
import { decodeStored } from '../../src/stores/velocity/stored.js'
import { uniform } from '../../src/domain/random.js'
import type { VelocityOptions } from '../../src/stores/velocity/index.js'
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
    const store = new VelocityStore(state, { maxCached: 20, flushIntervalMs: 3_600_000 })
    for (let i = 0; i < 40; i++) await record(state, store, T0, { event: 'payment', user_id: `u${i}`, ip: '10.0.0.1', amount: 1 })
    // Every user's counters are dirty until written: none can go.
    expect(store.cachedRecords).toBeGreaterThan(40)
    await store.flush()
    expect(store.cachedRecords).toBeLessThanOrEqual(20)
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
    // The model reads label.merchant's windows (frauds labelled later); a request never increments them.
    await record(state, store, T0, { ...base, custom: { terminal_id: 't1' } })
    const dims: string[] = []
    for await (const [key] of scan(state.db, ...prefixRange(TAG.velocity), { column: state.velocity })) {
      const parts = key.toString().split('\u0000')
      if (parts.at(-1) === 'c') dims.push(parts[3]!)
    }
    // user_event: the user's events of the request's kind, counted for the model's amount profile; ip24: the
    // address's network. The filtered counts (failed., update.) and the alias (inflow) are read, not written.
    expect(dims.sort()).toEqual(['ip', 'ip24', 'merchant', 'user', 'user_event'])
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

describe('materialized increments (another instance\'s decisions)', () => {
  const users = ['a', 'b', 'c', 'd']
  const event = (i: number): ScoreRequest => ({ event: 'payment', user_id: users[i % 4], device_id: `d${i % 7}`, ip: `10.0.0.${i % 3}`, amount: i % 13 })
  const snapshot = async (store: VelocityStore) => Promise.all(users.map(async u => features(store, T0, { event: 'payment', user_id: u, device_id: 'd0', ip: '10.0.0.0' })))
  const NEVER_FOLD = () => 0.99
  const ALWAYS_FOLD = () => 0

  async function openWith (options: VelocityOptions, dir = path.join(tempDir(), 'state')) {
    const state = await openStateDb(dir)
    return { state, store: new VelocityStore(state, options), dir }
  }

  /** Closes the store and opens it again as a restart does (the journal applied again). */
  async function reopen (state: StateDb, dir: string) {
    await state.close()
    const reopened = await openStateDb(dir)
    return { state: reopened, store: await VelocityStore.open(reopened) }
  }

  async function count (state: StateDb, store: VelocityStore, at: number, request: ScoreRequest = base) {
    const view = store.countView(scope, request, at, MODEL_NEEDS)
    await state.committer.commit(view.incrementOps())
    view.release()
  }

  /** How many records the stored value of the user's record holds (what was put, then each merge). */
  async function storedParts (state: StateDb, user: string): Promise<number> {
    for await (const [key, value] of scan(state.db, ...prefixRange(TAG.velocity), { column: state.velocity })) {
      const parts = key.toString().split('\u0000')
      if (parts[3] === 'user' && parts[4] === user) return decodeStored(value).parts
    }
    return 0
  }

  it('counts a materialized event as the request path does, whether the cache holds its records or not, and after a reopen', async () => {
    const scored = await openWith({ flushIntervalMs: 0 })
    const materialized = await openWith({ flushIntervalMs: 0, random: NEVER_FOLD })
    for (let i = 0; i < 120; i++) {
      await record(scored.state, scored.store, T0 - (i % 50) * MIN, event(i))
      // Up to the 40th event every increment is merged unread; the snapshot then reads (caches) the users' records,
      // so later ones are merged into records the cache holds too.
      if (i === 40) await snapshot(materialized.store).then(() => undefined)
      await count(materialized.state, materialized.store, T0 - (i % 50) * MIN, event(i))
    }
    const expected = await snapshot(scored.store)
    expect(expected[0]!.user_count_1h).toBe(30)
    expect(await snapshot(materialized.store)).toEqual(expected)
    const reopened = await reopen(materialized.state, materialized.dir)
    expect(await snapshot(reopened.store)).toEqual(expected)
    await Promise.all([reopened.state.close(), scored.state.close()])
  })

  it('reads nothing to count an event whose records it does not hold: one small merge per record it changes', async () => {
    const { state, store } = await openWith({ random: NEVER_FOLD })
    let reads = 0
    const getManySync = state.getManySync
    state.getManySync = (keys, column) => { reads += keys.length; return getManySync(keys, column) }
    const getMany = state.getMany
    state.getMany = async (keys, column) => { reads += keys.length; return getMany(keys, column) }
    const view = store.countView(scope, { ...base, device_id: 'd1', email: 'a@example.com' }, T0, MODEL_NEEDS)
    const ops = view.incrementOps()
    expect(ops.length).toBeGreaterThan(3)
    for (const op of ops) {
      expect(op.type).toBe('merge')
      expect(op.type === 'merge' && op.value.byteLength).toBeLessThan(200)
    }
    await state.committer.commit(ops)
    view.release()
    expect(reads).toBe(0)
    await state.close()
  })

  it('folds what was merged into a record when it is read, and a materializer folds instead of merging one time in 16', async () => {
    const never = await openWith({ flushIntervalMs: 0, random: NEVER_FOLD })
    for (let i = 0; i < 40; i++) await count(never.state, never.store, T0)
    expect(await storedParts(never.state, 'u')).toBe(40)
    expect((await features(never.store, T0)).user_count_1h).toBe(40)
    await never.store.flush()
    expect(await storedParts(never.state, 'u')).toBe(1)
    expect((await features(await VelocityStore.open(never.state), T0)).user_count_1h).toBe(40)
    await never.state.close()

    const always = await openWith({ flushIntervalMs: 0, random: ALWAYS_FOLD })
    const parts: number[] = []
    for (let i = 0; i < 40; i++) {
      await count(always.state, always.store, T0)
      parts.push(await storedParts(always.state, 'u'))
    }
    // Read at the first event (and held from then on): written whole, then merged into 16 times at most.
    expect(parts[0]).toBe(1)
    expect(Math.max(...parts)).toBeLessThanOrEqual(16)
    expect((await features(always.store, T0)).user_count_1h).toBe(40)
    await always.state.close()
  })

  it('keeps a value short however long its record goes unread here: a tenant cannot make a read slow', async () => {
    // The attack: every event of one entity reaches this instance through the stream only, never a request.
    // maxCached 0: nothing stays in the cache, so each event either merges unread or reads and rewrites.
    const { state, store } = await openWith({ flushIntervalMs: 0, maxCached: 0, random: uniform(36) })
    let longest = 0
    for (let i = 0; i < 600; i++) {
      await count(state, store, T0)
      longest = Math.max(longest, await storedParts(state, 'u'))
    }
    expect(longest).toBeGreaterThan(1)
    expect(longest).toBeLessThanOrEqual(64) // 24 with this seed; merging always would reach 600
    expect((await features(store, T0)).user_count_1h).toBe(600)
    await state.close()
  })

  it('takes back the increments of a batch that never reached the store (another of its decisions failed first)', async () => {
    const { state, store, dir } = await openWith({ flushIntervalMs: 0, random: NEVER_FOLD })
    expect((await features(store, T0)).user_count_1h).toBe(0) // the cache holds u's record; w's it does not
    const views = [base, { ...base, user_id: 'w' }].map(request => store.countView(scope, request, T0, MODEL_NEEDS))
    for (const view of views) view.incrementOps() // handed over, never committed: the batch failed before
    for (const view of views) view.release()
    expect((await features(store, T0)).user_count_1h).toBe(0)
    expect((await features(store, T0, { ...base, user_id: 'w' })).user_count_1h).toBe(0)
    await count(state, store, T0, { ...base, user_id: 'w' }) // and later writes do not carry them
    await store.flush()
    const again = await reopen(state, dir)
    expect((await features(again.store, T0)).user_count_1h).toBe(0)
    expect((await features(again.store, T0, { ...base, user_id: 'w' })).user_count_1h).toBe(1)
    await again.state.close()
  })

  it('merges into a record it holds too, and writes it whole after 16 merges', async () => {
    const { state, store } = await openWith({ flushIntervalMs: 0, random: NEVER_FOLD })
    expect((await features(store, T0)).user_count_1h).toBe(0) // read: the cache holds the user's record from now on
    const parts: number[] = []
    for (let i = 0; i < 40; i++) {
      await count(state, store, T0)
      parts.push(await storedParts(state, 'u'))
    }
    // One more merge each time; the 16th merge since the last whole write is followed by a whole write.
    expect(parts.slice(0, 15)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1))
    expect([parts[15], parts[31]]).toEqual([1, 1])
    expect(Math.max(...parts)).toBe(16)
    expect((await features(store, T0)).user_count_1h).toBe(40)
    expect((await features(await VelocityStore.open(state), T0)).user_count_1h).toBe(40)
    await state.close()
  })

  it('lets a read see a merge on its way to the store, and takes it back from that read if its write fails', async () => {
    const { state, store, dir } = await openWith({ flushIntervalMs: 0, random: NEVER_FOLD })
    const bad = { type: 'put', key: null, value: Buffer.from('x') } as unknown as WriteOp
    const failing = store.countView(scope, base, T0, MODEL_NEEDS)
    const failed = state.committer.commit([...failing.incrementOps(), bad])
    expect((await features(store, T0)).user_count_1h).toBe(1) // read before the write: the merge is added
    await expect(failed).rejects.toThrow()
    failing.release()
    expect((await features(store, T0)).user_count_1h).toBe(0)

    // The cache holds the user's record now: a failed write takes the increments back from it too.
    const held = store.countView(scope, base, T0, MODEL_NEEDS)
    await expect(state.committer.commit([...held.incrementOps(), bad])).rejects.toThrow()
    held.release()
    expect((await features(store, T0)).user_count_1h).toBe(0)

    const landing = store.countView(scope, { ...base, user_id: 'v' }, T0, MODEL_NEEDS)
    const landed = state.committer.commit(landing.incrementOps())
    expect((await features(store, T0, { ...base, user_id: 'v' })).user_count_1h).toBe(1)
    await landed
    landing.release()
    await store.flush() // the record read is written whole, after the merge it holds: counted once
    const again = await reopen(state, dir)
    expect((await features(again.store, T0)).user_count_1h).toBe(0)
    expect((await features(again.store, T0, { ...base, user_id: 'v' })).user_count_1h).toBe(1)
    await again.state.close()
  })
})

describe('velocity records on disk', () => {
  it('keeps one record per dimension value, a few bytes per slot used', async () => {
    const { state } = await open()
    const store = new VelocityStore(state, { flushIntervalMs: 0 })
    await record(state, store, T0)
    await record(state, store, T0 - 2 * MIN)
    const stored: Array<[Buffer, Buffer]> = []
    for await (const kv of scan(state.db, ...prefixRange(TAG.velocity), { column: state.velocity })) stored.push(kv)
    const user = stored.filter(([k]) => k.toString().includes('\u0000user\u0000u\u0000'))
    expect(user.map(([k]) => k.toString().split('\u0000').at(-1))).toEqual(['c'])
    // Two minute slots, one hour slot, one day slot: 28 bytes each, plus the format byte and three counts; then
    // the one link set the model reads (the user's addresses: a u16 count, the set's name and its one address).
    const ipLinks = 2 + 1 + 'ip'.length + linksSize(new Map([[base.ip!, T0]]))
    expect(user[0]![1].byteLength).toBe(1 + 3 * 2 + 4 * 28 + ipLinks)
    await state.close()
  })

  it('keeps a value\'s distinct links in its record: one key per value, read back after a reopen', async () => {
    const dir = path.join(tempDir(), 'state')
    const state = await openStateDb(dir)
    const store = new VelocityStore(state, { flushIntervalMs: 0 })
    const request = { ...base, device_id: 'd1', geo: { country: 'FR' } }
    await record(state, store, T0, request)
    await record(state, store, T0 + MIN, { ...request, device_id: 'd2' })
    const keys: string[] = []
    for await (const [k] of scan(state.db, ...prefixRange(TAG.velocity), { column: state.velocity })) keys.push(k.toString().split('\u0000').slice(3).join(' '))
    expect(keys.filter(k => k.startsWith('user '))).toEqual(['user u c'])
    expect(keys.every(k => k.endsWith(' c'))).toBe(true)
    await state.close()
    const reopened = await openStateDb(dir)
    const f = await features(await VelocityStore.open(reopened), T0 + 2 * MIN, { ...request, device_id: 'd3' })
    expect([f.user_count_1h, f.user_distinct_device_30d, f.user_distinct_country_30d, f.device_distinct_user_30d, f.ip_distinct_user_24h]).toEqual([2, 2, 1, 0, 1])
    await reopened.close()
  })

  it('forgets units older than twice the longest window of their resolution, whatever the order of events', async () => {
    const { state, store } = await open()
    const needs: VelocityNeed[] = [{ dimension: 'user', aggregate: 'count', window: '1h' }]
    // 3 h ago and 30 min ago, then now: the 3 h-old minute is out of reach (kept: 2 h), in either order.
    for (const ago of [3 * HOUR, 30 * MIN, 0]) await record(state, store, T0 - ago, base, needs)
    await record(state, store, T0 - 3 * HOUR - MIN, base, needs)
    expect((await features(store, T0 - 3 * HOUR, base, needs)).user_count_1h).toBe(0)
    expect((await features(store, T0 - 31 * MIN, base, needs)).user_count_1h).toBe(0)
    expect((await features(store, T0, base, needs)).user_count_1h).toBe(2)
    // Within one window of the latest event, reads of the past are exact.
    expect((await features(store, T0 - 20 * MIN, base, needs)).user_count_1h).toBe(1)
    await state.close()
  })

  it('folds records of the first format (a record per 60 minutes, 24 hours or 32 days; dense or sparse) into the new ones on open', async () => {
    const dir = path.join(tempDir(), 'state')
    const state = await openStateDb(dir)
    const oldKey = (res: string, chunk: number) => Buffer.from(['w', scope.tenant, scope.mode, 'user', 'u', res, String(chunk)].join('\u0000'))
    const minute = Math.floor(T0 / MIN)
    // Dense: minute chunk of T0 with 7 events at T0's minute. Sparse: the hour chunk with 7 events at T0's hour.
    const dense = new Float64Array(60 * 3)
    dense.set([7, 35, 175], (minute % 60) * 3)
    const hour = Math.floor(T0 / HOUR)
    const sparse = Buffer.alloc(1 + 26)
    sparse[0] = 1
    sparse.writeUInt16LE(hour % 24, 1)
    sparse.writeDoubleLE(7, 3); sparse.writeDoubleLE(35, 11); sparse.writeDoubleLE(175, 19)
    await state.committer.commit([
      { type: 'put', key: oldKey('m', Math.floor(minute / 60)), value: Buffer.from(dense.buffer), column: state.velocity },
      { type: 'put', key: oldKey('h', Math.floor(hour / 24)), value: sparse, column: state.velocity }
    ])
    await state.close()
    const reopened = await openStateDb(dir)
    const store = await VelocityStore.open(reopened)
    const f = await features(store, T0)
    expect([f.user_count_1h, f.user_count_24h, f.user_sum_24h]).toEqual([7, 7, 35])
    const keys: string[] = []
    for await (const [k] of scan(reopened.db, ...prefixRange(TAG.velocity), { column: reopened.velocity })) keys.push(k.toString().split('\u0000').slice(3).join(' '))
    expect(keys).toEqual(['user u c'])
    await reopened.close()
  })

  it('moves distinct-count records kept apart (binary or JSON, with or without a counter record) into their value\'s record on open', async () => {
    const dir = path.join(tempDir(), 'state')
    const state = await openStateDb(dir)
    const store = new VelocityStore(state, { flushIntervalMs: 0 })
    await record(state, store, T0, base, [{ dimension: 'user', aggregate: 'count', window: '1h' }])
    const apart = (dim: string, value: string, of: string) => Buffer.from(['w', scope.tenant, scope.mode, dim, value, 'x', of].join('\u0000'))
    // The email's links have no counter record beside them; 'u' is a prefix of 'u2', whose links stay its own.
    await state.committer.commit([
      { type: 'put', key: apart('user', 'u', 'device'), value: encodeLinks(new Map([['d1', T0 - MIN], ['d2', T0 - 2 * MIN]])), column: state.velocity },
      { type: 'put', key: apart('user', 'u2', 'device'), value: encodeLinks(new Map([['d3', T0 - MIN]])), column: state.velocity },
      { type: 'put', key: apart('ip', '10.0.0.1', 'user'), value: Buffer.from(JSON.stringify({ u: T0 - MIN, v: T0 - 3 * MIN })), column: state.velocity },
      { type: 'put', key: apart('email', 'a@b.c', 'user'), value: encodeLinks(new Map([['u', T0 - MIN], ['w', T0 - MIN]])), column: state.velocity }
    ])
    await state.close()
    const reopened = await openStateDb(dir)
    const folded = await VelocityStore.open(reopened)
    const f = await features(folded, T0, { ...base, device_id: 'd9', email: 'a@b.c' })
    expect([f.user_count_1h, f.ip_count_1h, f.user_distinct_device_30d, f.ip_distinct_user_24h, f.email_distinct_user_30d, f.email_count_1h]).toEqual([1, 1, 2, 2, 2, 0])
    expect((await features(folded, T0, { ...base, user_id: 'u2', device_id: 'd9' })).user_distinct_device_30d).toBe(1)
    const keys: string[] = []
    for await (const [k] of scan(reopened.db, ...prefixRange(TAG.velocity), { column: reopened.velocity })) keys.push(k.toString().split('\u0000').slice(3).join(' '))
    expect(keys).toEqual(['email a@b.c c', 'ip 10.0.0.1 c', 'user u c', 'user u2 c'])
    await reopened.close()
  })
})
