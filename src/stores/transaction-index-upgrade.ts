import { TAG } from './keys.js'
import { rewriteOnce, type OpeningStore } from './rewrite-once.js'
import { parseTransactionSubject, subjectIndexOps } from './transaction-records.js'

/**
 * The subject index entries of the transactions stored before the index existed (stores/transactions.ts),
 * written when the store opens, before it answers searches. Reads only each record's subject (not its features).
 * Runs once per store, marked done under the version of the index's search forms (search-form.ts: 2, emails in
 * lower case); run again after an interruption, it rewrites entries that are there already, which changes
 * nothing. Returns how many transactions it read.
 */
export const indexStoredTransactions = (state: OpeningStore): Promise<number> =>
  rewriteOnce(state, 'transaction_subject_index_2', TAG.transaction, value => subjectIndexOps(parseTransactionSubject(value)))
