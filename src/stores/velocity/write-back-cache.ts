import type { CommitHook, WriteOp } from '../rocks.js'
import type { StateDb } from '../state-db.js'
import { Journal, type JournalEntry } from './journal.js'
import { recordKey } from './read-plan.js'
import { encodeRecord, type VelocityRecord } from './record.js'
import { applyEvent, decodeStored, encodeEvent, type RecordEvent } from './stored.js'

/**
 * A record in the cache: `pins` counts the events that loaded it and whose write is not settled yet; `merged`
 * how many merges the store holds after what was put last (a flush puts it whole at FOLD_EVERY).
 */
export interface CachedRecord extends VelocityRecord { id: string, pins: number, merged: number }

/**
 * One event merged into one record in the store (`op`, stored.ts): pending until the write that holds it is
 * settled. `undo` takes it back from the reads that added it while it was pending.
 */
export interface Merge { id: string, op: WriteOp, event: RecordEvent, undo: Array<() => void>, state: 'pending' | 'written' | 'failed' }

/**
 * Merges into one record before it is rewritten whole. A cached record is written with the next flush once the
 * store holds this many merges after it. A materializer merges into a record it does not hold without reading
 * it, but reads and rewrites it instead once in this many times, at random: such a value holds this many merges
 * on average, and more than 16 times as many with a chance under one in ten million, however its events are
 * spread (no counting per record, which costs memory and, bounded, forgets).
 */
export const FOLD_EVERY = 16

export interface VelocityOptions {
  /** Records kept in memory beyond those pinned or dirty. */
  maxCached?: number
  /** How often dirty records are written (with the next group commit after it elapsed). */
  flushIntervalMs?: number
  /** Test seam: numbers in [0, 1) that choose which merges fold instead (FOLD_EVERY); Math.random by default. */
  random?: () => number
}

/**
 * Velocity records held in memory, written back with a later group commit (at most every `flushIntervalMs`).
 * Increments change the cached records at once; the events' durable writes carry journal entries (journal.ts),
 * and the dirty records go in one atomic write with the deletion of the entries they cover, only when every
 * increment in the cache belongs to a durable write or to that very write. A record stays pinned from the
 * read that loaded it until the write that used it is settled, and dirty records are never evicted.
 */
export class WriteBackCache implements CommitHook {
  private readonly records = new Map<string, CachedRecord>()
  private readonly dirty = new Set<CachedRecord>()
  private readonly journal = new Journal()
  private readonly maxCached: number
  private readonly flushIntervalMs: number
  private lastFlushMs = Date.now()
  private forced = false
  private trimBlocked = false
  /** The dirty records a write in progress holds. */
  private flushing: CachedRecord[] | undefined
  /** Merges handed to the committer and not written yet, by op and by record id (a read adds them). */
  private readonly merges = new Map<WriteOp, Merge>()
  private readonly mergesOf = new Map<string, Merge[]>()
  /** Whether to read and rewrite a record rather than merge into it (FOLD_EVERY). */
  private readonly fold: () => boolean

  constructor (private readonly state: StateDb, options: VelocityOptions = {}) {
    this.maxCached = options.maxCached ?? 30_000
    this.flushIntervalMs = options.flushIntervalMs ?? 1_000
    const random = options.random ?? Math.random
    this.fold = () => random() * FOLD_EVERY < 1
    state.committer.hooks.push(this)
  }

  /** Records held in memory (pinned, dirty or cached). */
  get size (): number { return this.records.size }

  get column (): unknown {
    return this.state.velocity
  }

  /** Loads (and pins) the records of these ids, by id. */
  async load (ids: Iterable<string>): Promise<Map<string, CachedRecord>> {
    const loaded = new Map<string, CachedRecord>()
    const missing: string[] = []
    for (const rid of ids) {
      const hit = this.records.get(rid)
      if (hit === undefined) { missing.push(rid); continue }
      hit.pins++
      loaded.set(rid, hit)
    }
    if (missing.length > 0) {
      const values = await this.state.getMany(missing.map(recordKey), this.column)
      missing.forEach((rid, i) => {
        // Another event may have loaded the same record while this one waited: the cached copy wins.
        const record = this.records.get(rid) ?? this.cached(rid, values[i])
        record.pins++
        loaded.set(rid, record)
      })
    }
    return loaded
  }

  /**
   * The record `id` read from the store (with the merges not written yet added), now cached. A value holding
   * merges is rewritten whole with the next flush, so reads find few.
   */
  private cached (rid: string, value: Buffer | undefined): CachedRecord {
    const { record: { counters, links }, parts } = decodeStored(value)
    const record: CachedRecord = { id: rid, counters, links, pins: 0, merged: Math.max(0, parts - 1) }
    for (const m of this.mergesOf.get(rid) ?? []) {
      applyEvent(record, m.event, m.undo)
      record.merged++
    }
    this.records.set(rid, record)
    if (record.merged > 0) this.dirty.add(record)
    return record
  }

  /**
   * Pins the cached records of these ids, by id, and of the others reads (synchronously) those chosen to fold
   * (FOLD_EVERY); the rest are not read (`merge` into them).
   */
  pinCached (ids: Iterable<string>): Map<string, CachedRecord> {
    const pinned = new Map<string, CachedRecord>()
    const folds: string[] = []
    for (const rid of ids) {
      const hit = this.records.get(rid)
      if (hit !== undefined) {
        hit.pins++
        pinned.set(rid, hit)
      } else if (this.fold()) {
        folds.push(rid)
      }
    }
    if (folds.length === 0) return pinned
    const values = this.state.getManySync(folds.map(recordKey), this.column)
    folds.forEach((rid, i) => {
      const record = this.cached(rid, values[i])
      // Read to be folded: written whole with the next flush, even if the increment after this read changes nothing.
      this.dirty.add(record)
      record.pins++
      pinned.set(rid, record)
    })
    return pinned
  }

  /**
   * Merges one event's increments into record `id`, to be handed to the committer at once; `held` is the cached
   * record when there is one (the caller added the increments to it), which the next flush folds after
   * FOLD_EVERY merges. A failed write takes the merge back from the reads that added it (afterWrite); the
   * caller takes it back from `held` (state `failed`).
   */
  merge (rid: string, event: RecordEvent, held: CachedRecord | undefined): Merge {
    const op: WriteOp = { type: 'merge', key: recordKey(rid), value: encodeEvent(event), column: this.column }
    const m: Merge = { id: rid, op, event, undo: [], state: 'pending' }
    this.merges.set(op, m)
    const of = this.mergesOf.get(rid)
    if (of === undefined) this.mergesOf.set(rid, [m])
    else of.push(m)
    if (held !== undefined && ++held.merged >= FOLD_EVERY) this.dirty.add(held)
    return m
  }

  /** The merges among a settled write's ops are no longer pending; a failed write's are taken back from reads. */
  private settleMerges (ops: readonly WriteOp[], written: boolean): void {
    for (const op of ops) {
      const m = this.merges.get(op)
      if (m !== undefined) this.settle(m, written)
    }
  }

  /**
   * A merge still pending once its caller is done never reached the committer (making the batch's other ops
   * failed): taken back from the reads that added it, as a failed write's.
   */
  abandon (m: Merge): void {
    if (m.state === 'pending') this.settle(m, false)
  }

  private settle (m: Merge, written: boolean): void {
    this.merges.delete(m.op)
    const of = this.mergesOf.get(m.id)!
    of.splice(of.indexOf(m), 1)
    if (of.length === 0) this.mergesOf.delete(m.id)
    m.state = written ? 'written' : 'failed'
    if (!written) for (const fn of m.undo.reverse()) fn()
  }

  /** Unpins records `load` returned. */
  unpin (loaded: Map<string, CachedRecord>): void {
    for (const r of loaded.values()) r.pins--
  }

  /** The journal entry of one event's increments (pending until its write is durable); `changed` are dirty. */
  journalled (entry: JournalEntry, changed: CachedRecord[]): WriteOp {
    for (const r of changed) this.dirty.add(r)
    return this.journal.add(entry)
  }

  /** Increments an earlier run journalled, applied again to `changed`: written with the next flush. */
  replayed (key: Buffer, changed: CachedRecord[]): void {
    for (const r of changed) this.dirty.add(r)
    this.journal.recovered(key)
  }

  inflight (op: WriteOp): boolean { return this.journal.inflight(op) }
  forget (op: WriteOp): void { this.journal.forget(op) }

  /** Writes every dirty record with the next group commit. */
  flush (): Promise<void> {
    this.forced = true
    return this.state.committer.commit([])
  }

  beforeWrite (ops: readonly WriteOp[]): WriteOp[] {
    if (this.dirty.size === 0) { this.forced = false; return [] }
    if (!this.forced && Date.now() - this.lastFlushMs < this.flushIntervalMs) return []
    const inGroup = this.journal.pendingIn(ops)
    if (inGroup === undefined) return []
    const records = [...this.dirty]
    this.flushing = records
    const column = this.column
    const out: WriteOp[] = records.map(r => ({ type: 'put', key: recordKey(r.id), value: encodeRecord(r), column }))
    return this.journal.coveredBy(inGroup, out)
  }

  afterWrite (ops: readonly WriteOp[], written: boolean): void {
    if (this.merges.size > 0) this.settleMerges(ops, written)
    const flushed = this.flushing
    this.flushing = undefined
    if (!written) return // the callers take their increments back (VelocityView.release)
    this.journal.written(ops, flushed !== undefined)
    if (flushed === undefined) return
    for (const r of flushed) {
      this.dirty.delete(r)
      r.merged = 0
    }
    this.forced = false
    this.lastFlushMs = Date.now()
    this.trimBlocked = false
    this.trim()
  }

  /**
   * Drops the clean, unpinned records whose id starts with `prefix` (an erased tenant's). Pinned or dirty ones
   * are written first and deleted by the erasure's second pass (stream/tenant-erasure.ts).
   */
  forgetRecords (prefix: string): void {
    for (const [rid, r] of this.records) if (rid.startsWith(prefix) && r.pins === 0 && !this.dirty.has(r)) this.records.delete(rid)
  }

  /**
   * Evicts unpinned clean records, oldest first, down to the bound once the cache is a tenth over it. A record
   * that must stay (pinned or dirty) moves to the back, so the next pass does not walk over it again.
   */
  trim (): void {
    if (this.trimBlocked || this.records.size <= this.maxCached * 1.1) return
    let walk = this.records.size
    for (const [rid, r] of this.records) {
      if (this.records.size <= this.maxCached || walk-- === 0) break
      this.records.delete(rid)
      if (r.pins > 0 || this.dirty.has(r)) this.records.set(rid, r)
    }
    // Nearly everything must stay until the next flush: walking again before it would find the same.
    this.trimBlocked = this.records.size > this.maxCached * 1.1
  }
}
