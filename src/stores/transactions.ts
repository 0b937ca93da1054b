import { idLowerBound } from '../domain/ids.js'
import { scan } from './rocks.js'
import { prefixRange, TAG } from './keys.js'
import type { StateDb } from './state-db.js'
import type { Scope } from '../domain/scope.js'
import type { TransactionRecord } from '../domain/records/decisions.js'
import type { Subject } from '../domain/decision/types.js'
import { parseTransaction, subjectIndexKey, transactionKey } from './transaction-records.js'
import { storedValues } from './stored-values.js'

export { INDEXED_VALUE_MAX, parseTransaction, parseTransactionHits, parseTransactionSubject, putTransactionOp, subjectIndexOps, transactionKey, transactionOps } from './transaction-records.js'

/**
 * Transactions created in [fromMs, toMs), oldest first (trace ids sort by creation time), at most `limit`; each
 * read by `parse` (the whole record unless told).
 */
export async function * transactionsBetween<T = TransactionRecord> (
  state: StateDb, scope: Scope, fromMs: number, toMs: number, limit: number, parse: (raw: Buffer) => T = parseTransaction as (raw: Buffer) => T
): AsyncGenerator<T> {
  const gte = transactionKey(scope, idLowerBound('trc', fromMs))
  const lt = transactionKey(scope, idLowerBound('trc', toMs))
  for await (const [, value] of scan(state.db, gte, lt, { limit })) yield parse(value)
}

/** The newest transactions first, from before `beforeTraceId` (exclusive), at most `limit` read. */
export async function * transactionsNewestFirst (state: StateDb, scope: Scope, beforeTraceId: string | undefined, limit: number): AsyncGenerator<TransactionRecord> {
  const [gte] = [transactionKey(scope, '')]
  const lt = beforeTraceId === undefined ? transactionKey(scope, '\u00ff') : transactionKey(scope, beforeTraceId)
  for await (const [, value] of scan(state.db, gte, lt, { limit, reverse: true })) yield parseTransaction(value)
}

/**
 * The decisions whose `subject` has `value` (in search form), newest first, from before `beforeTraceId`
 * (exclusive): at most `limit` index entries read. An entry whose transaction is gone (erased) is passed over.
 */
export async function * transactionsOfSubject (state: StateDb, scope: Scope, subject: Subject, value: string, beforeTraceId: string | undefined, limit: number): AsyncGenerator<TransactionRecord> {
  const [gte, end] = prefixRange(TAG.transactionBySubject, scope.tenant, scope.mode, subject, value)
  const lt = beforeTraceId === undefined ? end : subjectIndexKey(scope, subject, value, beforeTraceId)
  async function * keys () {
    // The trace id is the key's last part (a value may hold a NUL; a trace id never does).
    for await (const [key] of scan(state.db, gte, lt, { limit, reverse: true })) yield transactionKey(scope, key.subarray(key.lastIndexOf(0) + 1).toString())
  }
  for await (const raw of storedValues(state, keys())) yield parseTransaction(raw)
}

export async function getTransaction (state: StateDb, scope: Scope, traceId: string): Promise<TransactionRecord | undefined> {
  const raw = await state.get(transactionKey(scope, traceId))
  return raw === undefined ? undefined : parseTransaction(raw)
}
