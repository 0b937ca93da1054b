import { alignLearner, type LearnerState } from '../../src/domain/model/learner.js'
import type { Mode, Scope } from '../../src/domain/scope.js'
import { TAG } from '../../src/stores/keys.js'
import { tenantStore } from '../../src/stores/named-store.js'
import { scan } from '../../src/stores/rocks.js'
import type { StateDb } from '../../src/stores/state-db.js'
import type { BatchWrites } from '../../src/stream/batch-writes.js'

/**
 * Each scope's online learner (LearnerState as JSON): weights with the names of their inputs, watermark, trees'
 * champion and challenger. Read by name into the current inputs (alignLearner): a state naming an input the code
 * no longer has is an error, never weights moved onto other inputs.
 */
export const LEARNERS = tenantStore('feedback.learners', TAG.learner, 's')
/**
 * Where each scope's due index (due-index.ts) is still to be read from: entries before it were handled (and
 * deleted), so each read seeks past them instead of stepping over their deletions.
 */
export const DUE_FROM = tenantStore('feedback.due-from', TAG.learner, 'f')

const json = (v: unknown) => Buffer.from(JSON.stringify(v))
const learnerOf = (scope: Scope, raw: Buffer) => alignLearner(JSON.parse(raw.toString()) as LearnerState, undefined, `the learner state of ${scope.tenant}/${scope.mode}`)

export async function readLearner (writes: BatchWrites, scope: Scope): Promise<LearnerState | undefined> {
  const raw = await writes.get(LEARNERS.key(scope.tenant, scope.mode))
  return raw === undefined ? undefined : learnerOf(scope, raw)
}

export function writeLearner (writes: BatchWrites, scope: Scope, s: LearnerState): void {
  writes.put(LEARNERS.key(scope.tenant, scope.mode), json(s))
}

/**
 * Every scope's learner as the store holds it (not the batch's writes); one that cannot be read over the current
 * inputs (it names one the code does not have) is passed to `refused` and skipped, so the others go on.
 */
export async function * scanLearners (state: StateDb, refused: (scope: Scope, err: unknown) => void): AsyncGenerator<{ scope: Scope, s: LearnerState }> {
  for await (const [key, raw] of scan(state.db, ...LEARNERS.range())) {
    const [, , tenant, mode] = key.toString().split('\u0000') as [string, string, string, Mode]
    const scope = { tenant, mode }
    let s: LearnerState
    try {
      s = learnerOf(scope, raw)
    } catch (err) {
      refused(scope, err)
      continue
    }
    yield { scope, s }
  }
}

/** The due time the scope's due index is read from (0: from its start). */
export async function readDueFrom (writes: BatchWrites, scope: Scope): Promise<number> {
  const raw = await writes.get(DUE_FROM.key(scope.tenant, scope.mode))
  return raw === undefined ? 0 : Number(raw.toString())
}

export function writeDueFrom (writes: BatchWrites, scope: Scope, dueFromMs: number): void {
  writes.put(DUE_FROM.key(scope.tenant, scope.mode), Buffer.from(String(dueFromMs)))
}
