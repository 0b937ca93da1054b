import { TAG } from './keys.js'
import { rewriteOnce, type OpeningStore } from './rewrite-once.js'
import { unclosedIndexOp } from './case-queue-index.js'
import type { Case } from '../domain/cases/types.js'

/**
 * The queue index entries (stores/case-queue-index.ts) of the cases stored before the index existed, written
 * once when the store opens, before it answers. Returns how many cases it read.
 */
export const indexStoredCases = (state: OpeningStore): Promise<number> =>
  rewriteOnce(state, 'case_unclosed_index_1', TAG.caseRecord, value => [unclosedIndexOp(JSON.parse(value.toString()) as Case)])
