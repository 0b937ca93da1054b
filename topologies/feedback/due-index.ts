import type { Scope } from '../../src/domain/scope.js'
import { TAG } from '../../src/stores/keys.js'
import { tenantStore } from '../../src/stores/named-store.js'
import { scan } from '../../src/stores/rocks.js'
import type { StateDb } from '../../src/stores/state-db.js'
import type { BatchWrites } from '../../src/stream/batch-writes.js'

/** When a due entry's row matures (`m`: learned as legitimate unless labelled) or expires (`x`: dropped). */
export type DuePhase = 'm' | 'x'

/** The due index: (scope, due time, trace, phase), empty values; read in due-time order up to the watermark. */
export const DUE_INDEX = tenantStore('feedback.due-index', TAG.learner, 'd')

const dueKey = (s: Scope, dueMs: number, trace: string, phase: DuePhase) => DUE_INDEX.key(s.tenant, s.mode, String(dueMs).padStart(15, '0'), trace, phase)

/** An entry of the due index; `key` deletes it. */
export interface DueEntry { key: Buffer, dueMs: number, trace: string, phase: DuePhase }

export function addDueEntry (writes: BatchWrites, scope: Scope, dueMs: number, trace: string, phase: DuePhase): DueEntry {
  const key = dueKey(scope, dueMs, trace, phase)
  writes.put(key, Buffer.alloc(0))
  return { key, dueMs, trace, phase }
}

/** The scope's entries due at or after `fromMs` and before `toMs`, earliest first, as the store holds them. */
export async function * dueEntries (state: StateDb, scope: Scope, fromMs: number, toMs: number): AsyncGenerator<DueEntry> {
  for await (const [key] of scan(state.db, dueKey(scope, fromMs, '', 'm'), dueKey(scope, toMs, '', 'm'))) {
    const [, , , , due, trace, phase] = key.toString().split('\u0000')
    yield { key, dueMs: Number(due), trace: trace!, phase: phase as DuePhase }
  }
}
