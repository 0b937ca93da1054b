import type { ScoreRequest } from '../../domain/decision/types.js'
import type { VelocityNeed } from '../../domain/features/velocity-spec.js'
import type { Scope } from '../../domain/scope.js'
import type { StateDb } from '../state-db.js'
import { stateId, TAG } from '../keys.js'
import { increment } from './increment.js'
import { entriesLeft } from './journal.js'
import { labelPlan, replayPlan, requestPlan, type Plan } from './read-plan.js'
import { upgradeVelocityRecords } from './record-upgrade.js'
import { VelocityView } from './view.js'
import { WriteBackCache, type VelocityOptions } from './write-back-cache.js'

/** The velocity store (index.ts): opens the records and their journal, and hands out one view per event. */
export class VelocityStore {
  private readonly cache: WriteBackCache

  constructor (state: StateDb, options: VelocityOptions = {}) {
    this.cache = new WriteBackCache(state, options)
  }

  /** Opens the store and applies again the increments a crash left in the journal only. */
  static async open (state: StateDb, options: VelocityOptions = {}): Promise<VelocityStore> {
    await upgradeVelocityRecords(state)
    const store = new VelocityStore(state, options)
    for await (const [key, entry] of entriesLeft(state)) {
      const p = replayPlan({ tenant: entry.tenant, mode: entry.mode }, entry)
      const loaded = await store.cache.load(p.records.values())
      store.cache.replayed(key, increment(loaded, p, entry.t, entry.a))
      store.cache.unpin(loaded)
    }
    await store.flush()
    return store
  }

  /** Records held in memory (pinned, dirty or cached). */
  get cachedRecords (): number { return this.cache.size }

  /** Drops what memory holds of an erased tenant (write-back-cache.ts, forgetRecords). */
  forget (tenant: string): void {
    this.cache.forgetRecords(stateId(TAG.velocity, tenant, ''))
  }

  /** Writes every dirty record with the next group commit. */
  flush (): Promise<void> {
    return this.cache.flush()
  }

  /** Loads (and pins) every record the needs' features and the event's increments touch. */
  view (scope: Scope, request: ScoreRequest, eventTimeMs: number, needs: readonly VelocityNeed[]): Promise<VelocityView> {
    return this.viewOf(requestPlan(scope, request, needs), scope, request, eventTimeMs, needs)
  }

  /**
   * A view that only counts the event (another instance's decision, materialized): it reads nothing, so its
   * features() must not be called. Its increments go to the records the cache holds, and are merged into the
   * store for the others (view.ts, countOps): materializing costs no read and no rewrite of a whole record.
   */
  countView (scope: Scope, request: ScoreRequest, eventTimeMs: number, needs: readonly VelocityNeed[]): VelocityView {
    return new VelocityView(this.cache, undefined, requestPlan(scope, request, needs, false), scope, request, eventTimeMs, needs)
  }

  /** A view whose incrementOps() count one fraudulent transaction (labelled late) at its own event time. */
  labelView (scope: Scope, request: ScoreRequest, eventTimeMs: number): Promise<VelocityView> {
    return this.viewOf(labelPlan(scope, request), scope, request, eventTimeMs, [])
  }

  private async viewOf (p: Plan, scope: Scope, request: ScoreRequest, eventTimeMs: number, needs: readonly VelocityNeed[]): Promise<VelocityView> {
    return new VelocityView(this.cache, await this.cache.load(p.records.values()), p, scope, request, eventTimeMs, needs)
  }
}
