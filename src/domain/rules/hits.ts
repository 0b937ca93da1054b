import type { DecisionHits } from '../records/decisions.js'
import type { Rollout, Ruleset } from '../decision/types.js'
import { packHit, packsRun } from './rollout-guard.js'

export interface RuleHits { enforce: number, shadow: number }

/** How often each rule matched in these decisions: as an enforce rule (decision.rules) or in shadow (decision.shadow.rules). Pure. */
export function countRuleHits (records: Iterable<DecisionHits>): { decisions: number, hits: Record<string, RuleHits> } {
  const hits: Record<string, RuleHits> = {}
  let decisions = 0
  const of = (id: string) => (hits[id] ??= { enforce: 0, shadow: 0 })
  for (const r of records) {
    decisions++
    for (const id of r.decision.rules) of(id).enforce++
    for (const id of r.decision.shadow?.rules ?? []) of(id).shadow++
  }
  return { decisions, hits }
}

/** A pack's current run over some decisions: those it ran for, and those in which one of its rules matched. */
export interface PackHits { rollout_id: string | null, decisions: number, hits: number }

/**
 * For each pack of `current` (the active ruleset's rollouts), what its current run did in these decisions: a
 * decision counts for a run when the ruleset version it was decided with (`rulesetOf`) ran that run for it, as
 * the rollout guard counts (topologies/feedback/rollout-guard.ts), so an earlier run of the pack, or another
 * percentage, is not mixed in. Pure.
 */
export function countPackHits (
  records: Iterable<DecisionHits>, current: Readonly<Record<string, Rollout>>, rulesetOf: (version: string) => Pick<Ruleset, 'rollouts'> | undefined
): Record<string, PackHits> {
  const out: Record<string, PackHits> = {}
  for (const r of Object.values(current)) out[r.pack] = { rollout_id: r.id ?? null, decisions: 0, hits: 0 }
  for (const d of records) {
    if (Object.keys(d.rollout_buckets).length === 0) continue
    const ruleset = rulesetOf(d.ruleset_version)
    if (ruleset === undefined) continue
    for (const run of packsRun(ruleset, d.rollout_buckets)) {
      const counted = out[run.pack]
      if (counted === undefined || counted.rollout_id !== (run.id ?? null)) continue
      counted.decisions++
      if (packHit(run, d.decision.shadow?.rules ?? [])) counted.hits++
    }
  }
  return out
}
