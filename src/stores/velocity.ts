import type { Features, ScoreRequest } from '../domain/decision/types.js'
import { scan, type CommitHook, type WriteOp } from './rocks.js'
import type { Scope } from '../domain/scope.js'
import { prefixRange, stateId, stateKey, TAG } from './keys.js'
import type { StateDb } from './state-db.js'
import { BUILT_IN_DIMENSIONS, dimensionValue, featureName, isLabelDimension, LABEL_PREFIX, WINDOWS, type VelocityNeed } from '../domain/features/velocity-spec.js'
import { addAt, FIELD, RESOLUTIONS, subtractAt, sumSlots, UNIT_MS, unitOf, type Resolution } from './velocity-slots.js'
import { upgradeVelocityRecords } from './velocity-upgrade.js'
import { keepMostRecent } from './velocity-links.js'
import { decodeRecord, encodeRecord, type VelocityRecord } from './velocity-record.js'

/**
 * Velocity by event time, keyed by tenant, mode, dimension and value (see velocity-spec.ts): one record per
 * dimension value (velocity-record.ts) holding its counters, minute, hour and day slots (velocity-slots.ts),
 * and for each other dimension a distinct need counts, that dimension's values with their last-seen time, the
 * 256 most recent kept (velocity-links.ts). A request reads one record per dimension value it names. Links
 * for another dimension that no need reads any longer (its rule was removed) stay in the records that hold
 * them, read and written with them, and count again if a need for them comes back.
 *
 * Records live in a write-back cache: an increment is applied to the cached record synchronously (so a
 * request sees every increment of the requests answered before it) and the caller's durable write gets a
 * small journal entry saying what was incremented, not the records. The dirty records are written with
 * a later group commit (at most every `flushIntervalMs`), together with the deletion of the journal entries
 * they cover, in one atomic write, and only when every increment in the cache belongs to a durable write or
 * to that very write. After a crash, `open` re-applies the journal entries left (the increments not in the
 * records yet), so the counts equal those of a run without the crash (Kafka Streams' caching store with its
 * changelog, the journal playing the changelog). A record stays pinned in the cache from the read that
 * loaded it until the write that used it is durable, and dirty records are never evicted.
 * Features describe the history before the event: they are read before its increments.
 */
const LINKS_KEPT = 256
const NO_LINKS: number[] = []

interface Entry extends VelocityRecord { id: string, pins: number }

/** What one event incremented: enough to apply it again after a crash. */
interface JournalEntry { tenant: string, mode: Scope['mode'], t: number, a: number, tracked: Plan['tracked'], pairs: Plan['pairs'] }

/**
 * A record's id: the text of its state key (stateId). Lookups use the text; the key bytes are made only for
 * records read from or written to the store.
 */
const recordId = (scope: Scope, dim: string, value: string): string =>
  stateId(TAG.velocity, scope.tenant, scope.mode, dim, value, 'c')
const keyOf = (rid: string): Buffer => Buffer.from(rid)
const pairOf = (dim: string, of: string) => `${dim}\u0000${of}`

/** A plan of no records yet; `addRecord` adds a dimension value's record, `addLink` a distinct pair to it. */
function emptyPlan (): Plan {
  return { records: new Map(), linked: new Set(), tracked: [], pairs: [] }
}

/** A request has one value a dimension: its record is planned once, however many needs read it. */
function addRecord (p: Plan, scope: Scope, dim: string, value: string): void {
  if (!p.records.has(dim)) p.records.set(dim, recordId(scope, dim, value))
}

/** False when the (dimension, other dimension) pair was in the plan already. */
function addLink (p: Plan, scope: Scope, dim: string, value: string, of: string): boolean {
  addRecord(p, scope, dim, value)
  const pair = pairOf(dim, of)
  if (p.linked.has(pair)) return false
  p.linked.add(pair)
  return true
}

/** The records a fraud label increments: label.<dimension> for each of the labelled transaction's dimensions. */
function labelPlan (scope: Scope, request: ScoreRequest): Plan {
  const p = emptyPlan()
  for (const dim of [...BUILT_IN_DIMENSIONS, 'merchant']) {
    const value = dimensionValue(request, dim)
    if (value === undefined) continue
    p.tracked.push([LABEL_PREFIX + dim, value])
    addRecord(p, scope, LABEL_PREFIX + dim, value)
  }
  return p
}

/** The records a journal entry increments (its counter records, its link records). */
function journalPlan (j: JournalEntry): Plan {
  const scope: Scope = { tenant: j.tenant, mode: j.mode }
  const p = emptyPlan()
  for (const [dim, value] of j.tracked) addRecord(p, scope, dim, value)
  for (const [dim, value, of] of j.pairs) addLink(p, scope, dim, value, of)
  return { ...p, tracked: j.tracked, pairs: j.pairs }
}

interface Plan {
  /** Dimension -> the id of the record of the event's value for it, for loading. */
  records: Map<string, string>
  /** The (dimension, other dimension) pairs of the distinct needs planned (pairOf). */
  linked: Set<string>
  /** Dimensions with values, and the distinct pairs, that this event increments. */
  tracked: Array<[string, string]>
  pairs: Array<[string, string, string, string]>
}

/** Every record the event's increments touch and, with `windows`, those the features of `needs` read. */
function plan (scope: Scope, request: ScoreRequest, needs: readonly VelocityNeed[], windows = true): Plan {
  const p = emptyPlan()
  const dims = new Set<string>(BUILT_IN_DIMENSIONS)
  for (const n of needs) if (n.aggregate !== 'distinct') dims.add(n.dimension)
  for (const dim of dims) {
    const value = dimensionValue(request, dim)
    if (value === undefined) continue
    const counted = !isLabelDimension(dim)
    if (counted) p.tracked.push([dim, value])
    if (counted || windows) addRecord(p, scope, dim, value)
  }
  for (const n of needs) {
    if (n.aggregate !== 'distinct') continue
    const value = dimensionValue(request, n.dimension)
    const other = dimensionValue(request, n.of)
    if (value === undefined) continue
    if (addLink(p, scope, n.dimension, value, n.of) && other !== undefined) p.pairs.push([n.dimension, value, n.of, other])
  }
  return p
}

/**
 * Applies one event's increments to its loaded records and returns the records it changed (the others were
 * loaded only to be read); `undo` (when given) collects how to take the increments back.
 */
function increment (entries: Map<string, Entry>, plan: Plan, eventTimeMs: number, amount: number, undo?: Array<() => void>): Entry[] {
  const changed: Entry[] = []
  const sq = amount * amount
  for (const [dim] of plan.tracked) {
    const entry = entries.get(plan.records.get(dim)!)!
    let touched = false
    for (const res of RESOLUTIONS) {
      const s = entry.counters[res]
      const unit = unitOf(eventTimeMs, res)
      if (!addAt(s, res, unit, 1, amount, sq)) continue
      touched = true
      undo?.push(() => subtractAt(s, unit, 1, amount, sq))
    }
    if (touched) changed.push(entry)
  }
  for (const [dim, , of, other] of plan.pairs) {
    const entry = entries.get(plan.records.get(dim)!)!
    changed.push(entry)
    const sets = entry.links ??= new Map()
    let links = sets.get(of)
    if (links === undefined) sets.set(of, links = new Map())
    const before = links.get(other)
    const seen = Math.max(before ?? 0, eventTimeMs)
    links.set(other, seen)
    undo?.push(() => {
      if (links.get(other) !== seen) return // a later event saw the pair since: keep its time
      if (before === undefined) links.delete(other)
      else links.set(other, before)
    })
    keepMostRecent(links, LINKS_KEPT)
  }
  return changed
}

/** The records one event touches, loaded and pinned. */
export class VelocityView {
  constructor (
    private readonly store: VelocityStore,
    private readonly entries: Map<string, Entry>,
    private readonly plan: Plan,
    private readonly scope: Scope,
    private readonly request: ScoreRequest,
    private readonly eventTimeMs: number,
    private readonly needs: readonly VelocityNeed[]
  ) {}

  private entry (dim: string): Entry {
    return this.entries.get(this.plan.records.get(dim)!)!
  }

  private sum (dim: string, res: Resolution, units: number, field: number): number {
    const last = unitOf(this.eventTimeMs, res)
    return sumSlots(this.entry(dim).counters[res], res, last - units + 1, last, field)
  }

  /** Sets one feature per need whose dimension the request names (featureName(need)). */
  features (into: Features = {}): Features {
    for (const need of this.needs) {
      const value = dimensionValue(this.request, need.dimension)
      if (value === undefined) continue
      const { res, units } = WINDOWS[need.window]
      if (need.aggregate === 'distinct') {
        const since = this.eventTimeMs - units * UNIT_MS[res]
        let n = 0
        for (const seen of this.entry(need.dimension).links?.get(need.of)?.values() ?? NO_LINKS) if (seen > since && seen <= this.eventTimeMs) n++
        into[featureName(need)] = n
      } else {
        into[featureName(need)] = this.sum(need.dimension, res, units, FIELD[need.aggregate])
      }
    }
    return into
  }

  /** When the request's `of` value was last seen with its `dimension` value (a distinct need must cover the pair). */
  lastLinked (dimension: string, of: string): number | undefined {
    const value = dimensionValue(this.request, dimension)
    const other = dimensionValue(this.request, of)
    if (value === undefined || other === undefined) return undefined
    if (!this.plan.linked.has(pairOf(dimension, of))) return undefined
    return this.entry(dimension).links?.get(of)?.get(other)
  }

  private undo: Array<() => void> = []
  private journalOp: WriteOp | undefined

  /**
   * Adds this event (in the cache, now) and returns the journal entry for the caller's durable write;
   * revert() takes the increments back.
   */
  incrementOps (): WriteOp[] {
    const changed = increment(this.entries, this.plan, this.eventTimeMs, this.request.amount ?? 0, this.undo)
    this.journalOp = this.store.journal({ tenant: this.scope.tenant, mode: this.scope.mode, t: this.eventTimeMs, a: this.request.amount ?? 0, tracked: this.plan.tracked, pairs: this.plan.pairs }, changed)
    return [this.journalOp]
  }

  /**
   * Takes this event's increments back out of the cache: the batch that held them failed and was not
   * written. Subtracts rather than restores, so other events' increments made since are kept.
   */
  revert (): void {
    for (const fn of this.undo.splice(0).reverse()) fn()
    if (this.journalOp !== undefined) this.store.forget(this.journalOp)
    this.journalOp = undefined
  }

  /** Call once the batch holding incrementOps() is durable, or failed (then its increments are taken back). */
  release (): void {
    if (this.journalOp !== undefined && this.store.inflight(this.journalOp)) this.revert()
    for (const e of this.entries.values()) e.pins--
    this.store.trim()
  }
}

export interface VelocityOptions {
  /** Records kept in memory beyond those pinned or dirty. */
  maxCached?: number
  /** How often dirty records are written (with the next group commit after it elapsed). */
  flushIntervalMs?: number
}

export class VelocityStore implements CommitHook {
  private readonly cache = new Map<string, Entry>()
  private readonly dirty = new Set<Entry>()
  /** Journal entries of increments in the cache whose write is not durable yet. */
  private readonly pending = new Set<WriteOp>()
  /** Keys of durable journal entries whose increments are not in the stored records yet. */
  private journalled: Buffer[] = []
  private readonly maxCached: number
  private readonly flushIntervalMs: number
  private lastFlushMs = Date.now()
  private forced = false
  private trimBlocked = false
  private flushing: { entries: Entry[], pending: Set<WriteOp> } | undefined
  private readonly boot = String(Date.now()).padStart(15, '0')
  private seq = 0

  constructor (private readonly state: StateDb, options: VelocityOptions = {}) {
    this.maxCached = options.maxCached ?? 30_000
    this.flushIntervalMs = options.flushIntervalMs ?? 1_000
    state.committer.hooks.push(this)
  }

  /** Opens the store and applies again the increments a crash left in the journal only. */
  static async open (state: StateDb, options: VelocityOptions = {}): Promise<VelocityStore> {
    await upgradeVelocityRecords(state)
    const store = new VelocityStore(state, options)
    const [gte, lt] = prefixRange(TAG.velocityJournal)
    for await (const [key, value] of scan(state.db, gte, lt)) {
      const j = JSON.parse(value.toString()) as JournalEntry
      const p = journalPlan(j)
      const entries = await store.load(p)
      for (const e of increment(entries, p, j.t, j.a)) store.dirty.add(e)
      for (const e of entries.values()) e.pins--
      store.journalled.push(key)
    }
    await store.flush()
    return store
  }

  /** Records held in memory (pinned, dirty or cached). */
  get cachedRecords (): number { return this.cache.size }

  get column (): unknown {
    return this.state.velocity
  }

  /** The journal entry of one event's increments, pending until its write is durable. */
  journal (entry: JournalEntry, changed: Entry[]): WriteOp {
    for (const e of changed) this.dirty.add(e)
    const op: WriteOp = { type: 'put', key: stateKey(TAG.velocityJournal, this.boot, String(this.seq++).padStart(12, '0')), value: Buffer.from(JSON.stringify(entry)) }
    this.pending.add(op)
    return op
  }

  inflight (op: WriteOp): boolean { return this.pending.has(op) }
  forget (op: WriteOp): void { this.pending.delete(op) }

  /** Writes every dirty record with the next group commit. */
  flush (): Promise<void> {
    this.forced = true
    return this.state.committer.commit([])
  }

  beforeWrite (ops: readonly WriteOp[]): WriteOp[] {
    if (this.dirty.size === 0) { this.forced = false; return [] }
    if (!this.forced && Date.now() - this.lastFlushMs < this.flushIntervalMs) return []
    const inGroup = new Set<WriteOp>()
    for (const op of ops) if (this.pending.has(op)) inGroup.add(op)
    // An increment in the cache whose write is not this one may still fail: its records wait for a later group.
    if (inGroup.size !== this.pending.size) return []
    const entries = [...this.dirty]
    this.flushing = { entries, pending: inGroup }
    const column = this.column
    const out: WriteOp[] = entries.map(e => ({ type: 'put', key: keyOf(e.id), value: encodeRecord(e), column }))
    for (const key of this.journalled) out.push({ type: 'del', key })
    for (const op of inGroup) out.push({ type: 'del', key: op.key })
    return out
  }

  afterWrite (ops: readonly WriteOp[], written: boolean): void {
    const flushed = this.flushing
    this.flushing = undefined
    if (!written) return // the callers take their increments back (release)
    for (const op of ops) {
      if (!this.pending.delete(op)) continue
      if (flushed === undefined) this.journalled.push(op.key)
    }
    if (flushed === undefined) return
    for (const e of flushed.entries) this.dirty.delete(e)
    this.journalled = []
    this.forced = false
    this.lastFlushMs = Date.now()
    this.trimBlocked = false
    this.trim()
  }

  /** Loads (and pins) every record the needs' features and the event's increments touch. */
  async view (scope: Scope, request: ScoreRequest, eventTimeMs: number, needs: readonly VelocityNeed[]): Promise<VelocityView> {
    const p = plan(scope, request, needs)
    return new VelocityView(this, await this.load(p), p, scope, request, eventTimeMs, needs)
  }

  /**
   * A view that only counts the event (another instance's decision, materialized): it loads the records the
   * increments touch, not the windows features would read, so its features() must not be called.
   */
  async incrementView (scope: Scope, request: ScoreRequest, eventTimeMs: number, needs: readonly VelocityNeed[]): Promise<VelocityView> {
    const p = plan(scope, request, needs, false)
    return new VelocityView(this, await this.load(p), p, scope, request, eventTimeMs, needs)
  }

  /** A view whose incrementOps() count one fraudulent transaction (labelled late) at its own event time. */
  async labelView (scope: Scope, request: ScoreRequest, eventTimeMs: number): Promise<VelocityView> {
    const p = labelPlan(scope, request)
    return new VelocityView(this, await this.load(p), p, scope, request, eventTimeMs, [])
  }

  async load (p: Plan): Promise<Map<string, Entry>> {
    const entries = new Map<string, Entry>()
    const missing: string[] = []
    for (const rid of p.records.values()) {
      const hit = this.cache.get(rid)
      if (hit === undefined) { missing.push(rid); continue }
      hit.pins++
      entries.set(rid, hit)
    }
    if (missing.length > 0) {
      const keys = missing.map(keyOf)
      const values = await this.state.getMany(keys, this.column)
      missing.forEach((rid, i) => {
        // Another event may have loaded the same record while this one waited: the cached copy wins.
        let entry = this.cache.get(rid)
        if (entry === undefined) {
          const { counters, links } = decodeRecord(values[i])
          entry = { id: rid, counters, links, pins: 0 }
          this.cache.set(rid, entry)
        }
        entry.pins++
        entries.set(rid, entry)
      })
    }
    return entries
  }

  /**
   * Evicts unpinned clean records, oldest first, down to the bound once the cache is a tenth over it. A record
   * that must stay (pinned or dirty) moves to the back, so the next pass does not walk over it again.
   */
  trim (): void {
    if (this.trimBlocked || this.cache.size <= this.maxCached * 1.1) return
    let walk = this.cache.size
    for (const [rid, e] of this.cache) {
      if (this.cache.size <= this.maxCached || walk-- === 0) break
      this.cache.delete(rid)
      if (e.pins > 0 || this.dirty.has(e)) this.cache.set(rid, e)
    }
    // Nearly everything must stay until the next flush: walking again before it would find the same.
    this.trimBlocked = this.cache.size > this.maxCached * 1.1
  }
}
