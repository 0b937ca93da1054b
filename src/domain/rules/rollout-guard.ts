import type { Rollout, RolloutFigures, RolloutGuardStop, Ruleset, StopConditions } from '../decision/types.js'
import { round4 } from '../model/model.js'

/** Decisions a rollout runs for before its hit rate is judged, when its conditions do not say. */
export const DEFAULT_MIN_DECISIONS = 1000
/** Hits whose labels matured before its precision is judged, when its conditions do not say. */
export const DEFAULT_MIN_MATURED_HITS = 30

/** A running rollout that declared a stop condition: the ones the guard counts for. */
export function isGuarded (r: Rollout): r is Rollout & { id: string, stop_conditions: StopConditions } {
  return r.id !== undefined && r.status !== 'stopped' && r.stop_conditions !== undefined
}

/**
 * The running packs of a ruleset a decision decided with it ran: those whose bucket it fell in. (A decision has a
 * bucket for each pack that was running, src/domain/decision/decide.ts.)
 */
export function packsRun (ruleset: Pick<Ruleset, 'rollouts'>, buckets: Record<string, number>): Rollout[] {
  return Object.values(ruleset.rollouts ?? {}).filter(r => {
    const bucket = buckets[r.pack]
    return r.status !== 'stopped' && bucket !== undefined && bucket < r.percentage
  })
}

/** Whether one of a pack's rules matched in shadow. */
export const packHit = (r: Rollout, shadowMatched: readonly string[]): boolean => r.rule_ids.some(id => shadowMatched.includes(id))

/**
 * The guarded rollouts a decision ran: those of the ruleset it was decided with whose bucket it fell in, each
 * with whether one of its rules matched (in shadow).
 */
export function rolloutsRun (ruleset: Ruleset, buckets: Record<string, number>, shadowMatched: readonly string[]): Array<{ id: string, pack: string, hit: boolean }> {
  return packsRun(ruleset, buckets).filter(isGuarded).map(r => ({ id: r.id, pack: r.pack, hit: packHit(r, shadowMatched) }))
}

/** Whether figures cross a rollout's stop conditions, and which first (the hit rate is judged before precision). */
export function stopReason (c: StopConditions, f: RolloutFigures): Omit<RolloutGuardStop, 'at'> | undefined {
  const hitRate = f.decisions > 0 ? round4(f.hits / f.decisions) : 0
  const precision = f.matured_hits > 0 ? round4(f.matured_frauds / f.matured_hits) : null
  const figures = { ...f, hit_rate: hitRate, precision }
  if (c.max_hit_rate !== undefined && f.decisions >= (c.min_decisions ?? DEFAULT_MIN_DECISIONS) && f.hits / f.decisions > c.max_hit_rate) return { reason: 'hit_rate', ...figures }
  if (c.min_precision !== undefined && f.matured_hits >= (c.min_matured_hits ?? DEFAULT_MIN_MATURED_HITS) && f.matured_frauds / f.matured_hits < c.min_precision) return { reason: 'precision', ...figures }
  return undefined
}
