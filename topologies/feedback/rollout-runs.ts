import type { RolloutFigures } from '../../src/domain/decision/types.js'
import type { Scope } from '../../src/domain/scope.js'
import { TAG } from '../../src/stores/keys.js'
import { tenantStore } from '../../src/stores/named-store.js'
import type { BatchWrites } from '../../src/stream/batch-writes.js'

/** The figures of each guarded run of a scope's rollouts, by run id. */
export type GuardedRuns = Record<string, RolloutFigures & { pack: string }>

/** The rollout guard's figures (rollout-guard.ts), per scope. */
export const ROLLOUT_RUNS = tenantStore('feedback.rollout-runs', TAG.learner, 'g')

const runsKey = (s: Scope) => ROLLOUT_RUNS.key(s.tenant, s.mode)

export async function readRuns (writes: BatchWrites, scope: Scope): Promise<GuardedRuns> {
  const raw = await writes.get(runsKey(scope))
  return raw === undefined ? {} : JSON.parse(raw.toString()) as GuardedRuns
}

/** Stores the scope's runs; none left deletes the entry. */
export function writeRuns (writes: BatchWrites, scope: Scope, runs: GuardedRuns): void {
  if (Object.keys(runs).length === 0) writes.del(runsKey(scope))
  else writes.put(runsKey(scope), Buffer.from(JSON.stringify(runs)))
}
