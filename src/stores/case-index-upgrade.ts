import { TAG } from './keys.js'
import { rewriteOnce, type OpeningStore } from './rewrite-once.js'
import { subjectIndexOps, unclosedIndexOp } from './case-indexes.js'
import type { Case } from '../domain/cases/types.js'

/**
 * The index entries (stores/case-indexes.ts: the queue and the subjects) of the cases stored before the indexes
 * existed, written once when the store opens, before it answers. Returns how many cases it read.
 */
export function indexStoredCases (state: OpeningStore): Promise<number> {
  return rewriteOnce(state, 'case_indexes_1', TAG.caseRecord, value => {
    const c = JSON.parse(value.toString()) as Case
    return [unclosedIndexOp(c), ...subjectIndexOps(c)]
  })
}
