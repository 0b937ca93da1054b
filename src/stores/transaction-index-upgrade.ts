import { prefixRange, stateKey, TAG } from './keys.js'
import { scan, type GroupCommitter, type WriteOp } from './rocks.js'
import type { RocksLevel } from '@nxtedition/rocksdb'
import { parseTransactionSubject, subjectIndexOps } from './transaction-records.js'

const DONE = stateKey(TAG.meta, 'transaction_subject_index_2')
const WRITE_EVERY = 1000

/**
 * The subject index entries of the transactions stored before the index existed (stores/transactions.ts),
 * written when the store opens, before it answers searches. Reads only each record's subject (not its features).
 * Runs once per store, marked done under the version of the index's search forms (search-form.ts: 2, emails in
 * lower case); run again after an interruption, it rewrites entries that are there already, which changes
 * nothing. Returns how many transactions it read.
 */
export async function indexStoredTransactions (state: { db: RocksLevel, committer: GroupCommitter, get(key: Buffer): Promise<Buffer | undefined> }): Promise<number> {
  if (await state.get(DONE) !== undefined) return 0
  let ops: WriteOp[] = []
  let read = 0
  for await (const [, value] of scan(state.db, ...prefixRange(TAG.transaction))) {
    read++
    ops.push(...subjectIndexOps(parseTransactionSubject(value)))
    if (ops.length >= WRITE_EVERY) { await state.committer.commit(ops); ops = [] }
  }
  ops.push({ type: 'put', key: DONE, value: Buffer.from('1') })
  await state.committer.commit(ops)
  return read
}
