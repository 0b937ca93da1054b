import type { Features, ScoreRequest } from '../../domain/decision/types.js'
import type { Scope } from '../../domain/scope.js'
import { dimensionValue, featureName, WINDOWS, type VelocityNeed } from '../../domain/features/velocity-spec.js'
import type { WriteOp } from '../rocks.js'
import { increment } from './increment.js'
import { pairOf, type Plan } from './read-plan.js'
import { FIELD, sumSlots, UNIT_MS, unitOf, type Resolution } from './slots.js'
import type { CachedRecord, Merge, WriteBackCache } from './write-back-cache.js'
import type { Links } from './links.js'
import { applyEvent, type RecordEvent } from './stored.js'

/**
 * The records one event touches, loaded and pinned: its features (the history before the event: read before
 * its increments), then its increments, then release once the write holding them is settled.
 */
export class VelocityView {
  constructor (
    private readonly cache: WriteBackCache,
    /** Undefined for a view that only counts: resolved when it increments (incrementOps). */
    private records: Map<string, CachedRecord> | undefined,
    private readonly plan: Plan,
    private readonly scope: Scope,
    private readonly request: ScoreRequest,
    private readonly eventTimeMs: number,
    private readonly needs: readonly VelocityNeed[]
  ) {}

  private record (dim: string): CachedRecord {
    return this.records!.get(this.plan.records.get(dim)!)!
  }

  private sum (dim: string, res: Resolution, units: number, field: number): number {
    const last = unitOf(this.eventTimeMs, res)
    return sumSlots(this.record(dim).counters[res], res, last - units + 1, last, field)
  }

  /** Sets one feature per need whose dimension the request names (featureName(need)). */
  features (into: Features = {}): Features {
    for (const need of this.needs) {
      const value = dimensionValue(this.request, need.dimension)
      if (value === undefined) continue
      const { res, units } = WINDOWS[need.window]
      if (need.aggregate === 'distinct') {
        into[featureName(need)] = seenBetween(this.record(need.dimension).links?.get(need.of), this.eventTimeMs - units * UNIT_MS[res], this.eventTimeMs)
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
    return this.record(dimension).links?.get(of)?.get(other)
  }

  private undo: Array<() => void> = []
  private journalOp: WriteOp | undefined
  /** A counting view's merges (countOps). */
  private merges: Merge[] = []

  /**
   * Adds this event (in the cache, now) and returns the journal entry for the caller's durable write;
   * revert() takes the increments back.
   */
  incrementOps (): WriteOp[] {
    const amount = this.request.amount ?? 0
    if (this.records === undefined) return this.countOps(amount)
    const changed = increment(this.records, this.plan, this.eventTimeMs, amount, this.undo)
    this.journalOp = this.cache.journalled({ tenant: this.scope.tenant, mode: this.scope.mode, t: this.eventTimeMs, a: amount, tracked: this.plan.tracked, pairs: this.plan.pairs }, changed)
    return [this.journalOp]
  }

  /**
   * A counting view's increments: the event merged into each record it changes (stored.ts), durable with the
   * caller's write, and added to the records the cache holds; the others are not read (write-back-cache.ts,
   * pinCached and merge).
   */
  private countOps (amount: number): WriteOp[] {
    const cached = this.records = this.cache.pinCached(this.plan.records.values())
    const events = new Map<string, RecordEvent>()
    const eventOf = (dim: string) => {
      const rid = this.plan.records.get(dim)!
      let e = events.get(rid)
      if (e === undefined) events.set(rid, e = { t: this.eventTimeMs, amount, counted: false, links: [] })
      return e
    }
    for (const [dim] of this.plan.tracked) eventOf(dim).counted = true
    for (const [dim, , of, other] of this.plan.pairs) eventOf(dim).links.push([of, other])
    const ops: WriteOp[] = []
    for (const [rid, e] of events) {
      const held = cached.get(rid)
      if (held !== undefined) applyEvent(held, e, this.undo)
      const m = this.cache.merge(rid, e, held)
      this.merges.push(m)
      ops.push(m.op)
    }
    return ops
  }

  /**
   * Takes this event's increments back out of the cache: the batch that held them failed and was not
   * written. Subtracts rather than restores, so other events' increments made since are kept.
   */
  revert (): void {
    for (const fn of this.undo.splice(0).reverse()) fn()
    if (this.journalOp !== undefined) this.cache.forget(this.journalOp)
    this.journalOp = undefined
  }

  /** Call once the batch holding incrementOps() is durable, or failed (then its increments are taken back). */
  release (): void {
    for (const m of this.merges) this.cache.abandon(m)
    if (this.journalOp !== undefined && this.cache.inflight(this.journalOp)) this.revert()
    else if (this.merges.some(m => m.state === 'failed')) this.revert()
    if (this.records !== undefined) this.cache.unpin(this.records)
    this.cache.trim()
  }
}

/**
 * How many links were last seen in (since, until]. forEach, not for-of: a hot value holds hundreds of links and
 * every request reads them; iterating values made a result object per link (measured with the sampling heap
 * profiler, a tenth of what a request allocated).
 */
function seenBetween (links: Links | undefined, since: number, until: number): number {
  if (links === undefined) return 0
  counted = 0
  from = since
  to = until
  links.forEach(countSeen)
  return counted
}
let counted = 0
let from = 0
let to = 0
function countSeen (seen: number): void {
  if (seen > from && seen <= to) counted++
}
