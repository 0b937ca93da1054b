import { prefixRange, stateKey, TAG } from './keys.js'
import { scan, type WriteOp } from './rocks.js'
import type { StateDb } from './state-db.js'
import { parseTransactionSubject, subjectIndexOps } from './transactions.js'

const DONE = stateKey(TAG.meta, 'transaction_subject_index_2')
const WRITE_EVERY = 1000

/**
 * The subject index entries of the transactions stored before the index existed (stores/transactions.ts),
 * written when the store opens, before it answers searches. Reads only each record's subject (not its features).
 * Runs once per store, marked done under the version of the index's search forms (search-form.ts: 2, emails in
 * lower case); run again after an interruption, it rewrites entries that are there already, which changes
 * nothing. Returns how many transactions it read.
 */
export async function indexStoredTransactions (state: Pick<StateDb, 'db' | 'committer' | 'get'>): Promise<number> {
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
