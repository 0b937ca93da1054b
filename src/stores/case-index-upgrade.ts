import { prefixRange, stateKey, TAG } from './keys.js'
import { scan, type GroupCommitter, type WriteOp } from './rocks.js'
import type { RocksLevel } from '@nxtedition/rocksdb'
import { unclosedIndexOp } from './case-queue-index.js'
import type { Case } from '../domain/cases/types.js'

const DONE = stateKey(TAG.meta, 'case_unclosed_index_1')
const WRITE_EVERY = 1000

/**
 * The queue index entries (stores/cases.ts, scanUnclosed) of the cases stored before the index existed, written
 * when the store opens, before it answers. Runs once per store (marked done); run again after an interruption,
 * it writes the same entries again, which changes nothing. Returns how many cases it read.
 */
export async function indexStoredCases (state: { db: RocksLevel, committer: GroupCommitter, get(key: Buffer): Promise<Buffer | undefined> }): Promise<number> {
  if (await state.get(DONE) !== undefined) return 0
  let ops: WriteOp[] = []
  let read = 0
  for await (const [, value] of scan(state.db, ...prefixRange(TAG.caseRecord))) {
    read++
    ops.push(unclosedIndexOp(JSON.parse(value.toString()) as Case))
    if (ops.length >= WRITE_EVERY) { await state.committer.commit(ops); ops = [] }
  }
  ops.push({ type: 'put', key: DONE, value: Buffer.from('1') })
  await state.committer.commit(ops)
  return read
}
