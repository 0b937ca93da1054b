import type { Features, ScoreRequest, Subject } from '../decision/types.js'
import type { WriteOp } from '../storage/rocks.js'
import { stateKey, TAG } from './keys.js'
import type { StateDb } from './state-db.js'

/**
 * Velocity counters by event time, keyed by tenant, mode, dimension and value, at two resolutions:
 * minute slots (windows up to 1 h) stored 60 to a record (one record per hour), and hour slots (windows up
 * to 30 d) stored 24 to a record (one per day). Each slot holds [count, amount sum]. A 1 h window reads two
 * minute records, a 24 h window two hour records.
 *
 * Records are updated read-modify-write through a write-through cache: an increment is applied to the
 * cached record synchronously and the whole record is put in the caller's write batch, so concurrent
 * requests never lose an increment (JavaScript runs them one at a time and batches commit in order).
 * A record stays pinned in the cache from the read that loaded it until the write that used it is durable.
 */
const MINUTE = 60_000
const HOUR = 3_600_000
const SLOTS = { m: 60, h: 24 } as const
type Resolution = keyof typeof SLOTS
const DIMENSIONS: ReadonlyArray<[Subject, string]> = [['user_id', 'user'], ['device_id', 'device'], ['ip', 'ip'], ['email', 'email']]

export interface Scope { tenant: string, mode: 'live' | 'test' }

interface Entry { key: Buffer, data: Float64Array, pins: number }

function recordKey (scope: Scope, dim: string, value: string, res: Resolution, chunk: number): Buffer {
  return stateKey(TAG.velocity, scope.tenant, scope.mode, dim, value, res, String(chunk))
}

/** Where an event time falls: record (chunk) index and slot inside it, per resolution. */
function position (eventTimeMs: number, res: Resolution): { chunk: number, slot: number } {
  const unit = Math.floor(eventTimeMs / (res === 'm' ? MINUTE : HOUR))
  return { chunk: Math.floor(unit / SLOTS[res]), slot: unit % SLOTS[res] }
}

/** Sum of field (0 count, 1 amount) over the window of SLOTS[res] units ending at `slot` of `current`. */
function windowSum (current: Float64Array, previous: Float64Array, slot: number, field: 0 | 1): number {
  let total = 0
  for (let s = 0; s <= slot; s++) total += current[s * 2 + field]!
  for (let s = slot + 1; s < previous.length / 2; s++) total += previous[s * 2 + field]!
  return total
}

/** Records one request touches: per dimension it names, current and previous record at both resolutions. */
export class VelocityView {
  constructor (
    private readonly store: VelocityStore,
    readonly entries: Map<string, Entry>,
    private readonly scope: Scope,
    private readonly request: ScoreRequest,
    private readonly eventTimeMs: number
  ) {}

  private entry (dim: string, value: string, res: Resolution, chunk: number): Entry {
    return this.entries.get(recordKey(this.scope, dim, value, res, chunk).toString('latin1'))!
  }

  /** Counts over the last hour per dimension, and for the user count and amount over the last 24 h. */
  features (into: Features): void {
    const m = position(this.eventTimeMs, 'm')
    const h = position(this.eventTimeMs, 'h')
    for (const [subject, dim] of DIMENSIONS) {
      const value = this.request[subject]
      if (value === undefined) continue
      into[`${dim}_count_1h`] = windowSum(this.entry(dim, value, 'm', m.chunk).data, this.entry(dim, value, 'm', m.chunk - 1).data, m.slot, 0)
      if (subject === 'user_id') {
        const cur = this.entry(dim, value, 'h', h.chunk).data
        const prev = this.entry(dim, value, 'h', h.chunk - 1).data
        into.user_count_24h = windowSum(cur, prev, h.slot, 0)
        into.user_amount_24h = windowSum(cur, prev, h.slot, 1)
      }
    }
  }

  /** Adds this request to its slots (in the cache, now) and returns the puts for the caller's batch. */
  incrementOps (): WriteOp[] {
    const ops: WriteOp[] = []
    const amount = this.request.amount ?? 0
    for (const res of ['m', 'h'] as const) {
      const { chunk, slot } = position(this.eventTimeMs, res)
      for (const [subject, dim] of DIMENSIONS) {
        const value = this.request[subject]
        if (value === undefined) continue
        const e = this.entry(dim, value, res, chunk)
        e.data[slot * 2]! += 1
        e.data[slot * 2 + 1]! += amount
        ops.push({ type: 'put', key: e.key, value: Buffer.from(e.data.buffer.slice(0)), column: this.store.column })
      }
    }
    return ops
  }

  /** Call once the batch holding incrementOps() is durable (or abandoned). */
  release (): void {
    for (const e of this.entries.values()) e.pins--
    this.store.trim()
  }
}

export class VelocityStore {
  private readonly cache = new Map<string, Entry>()

  constructor (private readonly state: StateDb, private readonly maxCached = 50_000) {}

  get column (): unknown {
    return this.state.velocity
  }

  /** Loads (and pins) every record the request's features and increments need. */
  async view (scope: Scope, request: ScoreRequest, eventTimeMs: number): Promise<VelocityView> {
    const wanted = new Map<string, { key: Buffer, res: Resolution }>()
    for (const res of ['m', 'h'] as const) {
      const { chunk } = position(eventTimeMs, res)
      for (const [subject, dim] of DIMENSIONS) {
        const value = request[subject]
        if (value === undefined) continue
        for (const c of [chunk, chunk - 1]) {
          const key = recordKey(scope, dim, value, res, c)
          wanted.set(key.toString('latin1'), { key, res })
        }
      }
    }
    const entries = new Map<string, Entry>()
    const missing: string[] = []
    for (const [id] of wanted) {
      const hit = this.cache.get(id)
      if (hit === undefined) { missing.push(id); continue }
      hit.pins++
      entries.set(id, hit)
    }
    if (missing.length > 0) {
      const values = await this.state.getMany(missing.map(id => wanted.get(id)!.key), this.column)
      missing.forEach((id, i) => {
        // Another request may have loaded the same record while this one waited: the cached copy wins.
        let entry = this.cache.get(id)
        if (entry === undefined) {
          const { key, res } = wanted.get(id)!
          const raw = values[i]
          const data = new Float64Array(SLOTS[res] * 2)
          if (raw !== undefined) data.set(new Float64Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength)))
          entry = { key, data, pins: 0 }
          this.cache.set(id, entry)
        }
        entry.pins++
        entries.set(id, entry)
      })
    }
    return new VelocityView(this, entries, scope, request, eventTimeMs)
  }

  /** Evicts unpinned records, oldest first, down to the bound. */
  trim (): void {
    if (this.cache.size <= this.maxCached) return
    for (const [id, e] of this.cache) {
      if (this.cache.size <= this.maxCached) break
      if (e.pins === 0) this.cache.delete(id)
    }
  }
}
