import { idLowerBound } from '../domain/ids.js'
import { scan, type WriteOp } from './rocks.js'
import { stateKey, TAG } from './keys.js'
import type { StateDb } from './state-db.js'
import { scopeOf, type Scope } from '../domain/scope.js'
import { decodeEvent, type DecisionSubject, type TransactionRecord } from '../domain/records/decisions.js'

/** Transactions are keyed by tenant and mode first, so one tenant or mode can never read another's. */
export function transactionKey (scope: Scope, traceId: string): Buffer {
  return stateKey(TAG.transaction, scope.tenant, scope.mode, traceId)
}

/**
 * A transaction is stored as its DecisionRecorded Protobuf bytes (`encoded`), the bytes its outbox entry holds.
 * Records stored before were JSON: read as such.
 */
export function putTransactionOp (record: DecisionSubject, encoded: Uint8Array): WriteOp {
  return {
    type: 'put',
    key: transactionKey(scopeOf(record), record.trace_id),
    value: Buffer.from(encoded.buffer, encoded.byteOffset, encoded.byteLength)
  }
}

const JSON_OBJECT = 0x7b // '{', never the first byte of a DecisionRecorded (field 15 as a group)

export function parseTransaction (raw: Buffer): TransactionRecord {
  return raw[0] === JSON_OBJECT ? JSON.parse(raw.toString()) as TransactionRecord : decodeEvent(raw)
}

/** Transactions created in [fromMs, toMs), oldest first (trace ids sort by creation time), at most `limit`. */
export async function * transactionsBetween (state: StateDb, scope: Scope, fromMs: number, toMs: number, limit: number): AsyncGenerator<TransactionRecord> {
  const gte = transactionKey(scope, idLowerBound('trc', fromMs))
  const lt = transactionKey(scope, idLowerBound('trc', toMs))
  for await (const [, value] of scan(state.db, gte, lt, { limit })) yield parseTransaction(value)
}

/** The newest transactions first, from before `beforeTraceId` (exclusive), at most `limit` read. */
export async function * transactionsNewestFirst (state: StateDb, scope: Scope, beforeTraceId: string | undefined, limit: number): AsyncGenerator<TransactionRecord> {
  const [gte] = [transactionKey(scope, '')]
  const lt = beforeTraceId === undefined ? transactionKey(scope, '\u00ff') : transactionKey(scope, beforeTraceId)
  for await (const [, value] of scan(state.db, gte, lt, { limit, reverse: true })) yield parseTransaction(value)
}

export async function getTransaction (state: StateDb, scope: Scope, traceId: string): Promise<TransactionRecord | undefined> {
  const raw = await state.get(transactionKey(scope, traceId))
  return raw === undefined ? undefined : parseTransaction(raw)
}
