import type { CommitHook, WriteOp } from '../rocks.js'
import type { StateDb } from '../state-db.js'
import { Journal, type JournalEntry } from './journal.js'
import { recordKey } from './read-plan.js'
import { decodeRecord, encodeRecord, type VelocityRecord } from './record.js'

/** A record in the cache: `pins` counts the events that loaded it and whose write is not settled yet. */
export interface CachedRecord extends VelocityRecord { id: string, pins: number }

export interface VelocityOptions {
  /** Records kept in memory beyond those pinned or dirty. */
  maxCached?: number
  /** How often dirty records are written (with the next group commit after it elapsed). */
  flushIntervalMs?: number
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

  constructor (private readonly state: StateDb, options: VelocityOptions = {}) {
    this.maxCached = options.maxCached ?? 30_000
    this.flushIntervalMs = options.flushIntervalMs ?? 1_000
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
        let record = this.records.get(rid)
        if (record === undefined) {
          const { counters, links } = decodeRecord(values[i])
          record = { id: rid, counters, links, pins: 0 }
          this.records.set(rid, record)
        }
        record.pins++
        loaded.set(rid, record)
      })
    }
    return loaded
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
    const flushed = this.flushing
    this.flushing = undefined
    if (!written) return // the callers take their increments back (VelocityView.release)
    this.journal.written(ops, flushed !== undefined)
    if (flushed === undefined) return
    for (const r of flushed) this.dirty.delete(r)
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
