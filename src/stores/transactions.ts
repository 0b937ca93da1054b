import { idLowerBound } from '../domain/ids.js'
import { scanJson, type WriteOp } from './rocks.js'
import { stateKey, TAG } from './keys.js'
import type { StateDb } from './state-db.js'
import { scopeOf, type Scope } from '../domain/scope.js'
import type { TransactionRecord } from '../domain/records/decisions.js'

/** Transactions are keyed by tenant and mode first, so one tenant or mode can never read another's. */
export function transactionKey (scope: Scope, traceId: string): Buffer {
  return stateKey(TAG.transaction, scope.tenant, scope.mode, traceId)
}

export function putTransactionOp (record: TransactionRecord): WriteOp {
  return {
    type: 'put',
    key: transactionKey(scopeOf(record), record.trace_id),
    value: Buffer.from(JSON.stringify(record))
  }
}

/** Transactions created in [fromMs, toMs), oldest first (trace ids sort by creation time), at most `limit`. */
export async function * transactionsBetween (state: StateDb, scope: Scope, fromMs: number, toMs: number, limit: number): AsyncGenerator<TransactionRecord> {
  const gte = transactionKey(scope, idLowerBound('trc', fromMs))
  const lt = transactionKey(scope, idLowerBound('trc', toMs))
  yield * scanJson<TransactionRecord>(state.db, gte, lt, { limit })
}

export async function getTransaction (state: StateDb, scope: Scope, traceId: string): Promise<TransactionRecord | undefined> {
  const raw = await state.get(transactionKey(scope, traceId))
  return raw === undefined ? undefined : JSON.parse(raw.toString()) as TransactionRecord
}
