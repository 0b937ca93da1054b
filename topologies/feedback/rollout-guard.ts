import type { TransactionRecord } from '../../src/domain/records/decisions.js'
import { isGuarded, rolloutsRun, stopReason } from '../../src/domain/rules/rollout-guard.js'
import { stopRollout } from '../../src/domain/rules/ruleset-edits.js'
import type { Scope } from '../../src/domain/scope.js'
import type { BatchWrites } from '../../src/stream/batch-writes.js'
import type { ControlPlane } from '../../src/stream/control-plane.js'
import type { AuditLog } from '../../src/stream/audit-log.js'
import { readRuns, writeRuns, type GuardedRuns } from './rollout-runs.js'

/** Who the guard's changes and audit entries name. */
export const GUARD_ACTOR = 'rollout-guard'

export interface RolloutGuardDeps {
  control: Pick<ControlPlane, 'rulesetAt' | 'activeRuleset' | 'propose'>
  audit: Pick<AuditLog, 'record'>
  clock: () => number
  logger: { error(o: object, msg: string): void }
}

/**
 * The rollout guard, inside the feedback topology (which sees every decision and when its label matured):
 * for each run of a rollout that declared stop conditions, it counts the decisions the run's pack ran for
 * and those one of its rules matched, and, as they mature, those hits labelled fraud. When the figures cross a
 * condition (src/domain/rules/rollout-guard.ts) it stops the run: a new ruleset version with the pack `stopped`
 * and why, audited as `rollout.stopped`. A decision counts for the runs of the ruleset version it was decided
 * with, so a run's figures are its own traffic's.
 */
export class RolloutGuard {
  private readonly stopping = new Set<string>()

  constructor (private readonly deps: RolloutGuardDeps) {}

  load (scope: Scope, writes: BatchWrites): Promise<GuardedRuns> {
    return readRuns(writes, scope)
  }

  save (scope: Scope, writes: BatchWrites, runs: GuardedRuns): void {
    writeRuns(writes, scope, runs)
  }

  /** Counts a decision for the guarded runs it ran; the ids of those one of whose rules it matched (kept on its row). */
  async observe (scope: Scope, runs: GuardedRuns, d: TransactionRecord): Promise<string[]> {
    if (Object.keys(d.rollout_buckets).length === 0) return []
    const ruleset = await this.deps.control.rulesetAt(scope, d.ruleset_version)
    if (ruleset === undefined) return []
    const hits: string[] = []
    for (const { id, pack, hit } of rolloutsRun(ruleset, d.rollout_buckets, d.decision.shadow?.rules ?? [])) {
      const f = runs[id] ??= { pack, decisions: 0, hits: 0, matured_hits: 0, matured_frauds: 0 }
      f.decisions++
      if (hit) { f.hits++; hits.push(id) }
    }
    return hits
  }

  /** A decision that hit runs `ids` matured, labelled fraud or not. */
  matured (runs: GuardedRuns, ids: readonly string[], fraud: boolean): void {
    for (const id of ids) {
      const f = runs[id]
      if (f === undefined) continue
      f.matured_hits++
      if (fraud) f.matured_frauds++
    }
  }

  /** A decision that hit runs `ids` and was counted as matured got a different label (a late chargeback, a correction). */
  relabelled (runs: GuardedRuns, ids: readonly string[], fraud: boolean): void {
    for (const id of ids) {
      const f = runs[id]
      if (f !== undefined) f.matured_frauds = Math.max(0, f.matured_frauds + (fraud ? 1 : -1))
    }
  }

  /**
   * Judges the scope's runs against the active ruleset: figures of a run no longer running there are dropped;
   * a run whose figures cross its conditions is stopped once the batch committed (`after`). Returns whether
   * `runs` changed.
   */
  async check (scope: Scope, runs: GuardedRuns, after: (fn: () => Promise<void>) => void): Promise<boolean> {
    const ids = Object.keys(runs)
    if (ids.length === 0) return false
    const { ruleset } = await this.deps.control.activeRuleset(scope)
    let changed = false
    for (const id of ids) {
      const { pack, ...figures } = runs[id]!
      const r = ruleset.rollouts?.[pack]
      if (r === undefined || r.id !== id || !isGuarded(r)) { delete runs[id]; changed = true; continue }
      const stop = stopReason(r.stop_conditions, figures)
      if (stop !== undefined && !this.stopping.has(id)) {
        this.stopping.add(id)
        after(() => this.stop(scope, pack, id, stop).finally(() => this.stopping.delete(id)))
      }
    }
    return changed
  }

  private async stop (scope: Scope, pack: string, id: string, reason: NonNullable<ReturnType<typeof stopReason>>): Promise<void> {
    const { control, audit, clock, logger } = this.deps
    try {
      const current = (await control.activeRuleset(scope)).ruleset.rollouts?.[pack]
      if (current?.id !== id || current.status === 'stopped') return
      const stopped = { ...reason, at: Math.floor(clock() / 1000) }
      const version = await control.propose(scope, GUARD_ACTOR, { type: 'rollout.stopped', pack }, ruleset => stopRollout(ruleset, pack, id, stopped), clock())
      if (version.ruleset.rollouts?.[pack]?.stopped !== stopped) return // another instance stopped it first
      await audit.record({
        tenant_id: scope.tenant, mode: scope.mode, actor: GUARD_ACTOR, action: 'rollout.stopped', object_type: 'rollout', object_id: pack,
        trace_id: null, data: { rollout_id: id, ruleset_version: version.ruleset.version, ...stopped }
      })
    } catch (err) {
      logger.error({ err, scope, pack, rollout_id: id }, 'stopping a rollout failed; the next batch tries again')
    }
  }
}
