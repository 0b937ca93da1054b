import type { WriteOp } from './rocks.js'
import { stateKey, TAG } from './keys.js'
import { scopeOf, type Scope } from '../domain/scope.js'
import { decisionHits, decisionSubject, decodeEvent, type DecisionHits, type DecisionSubject, type TransactionRecord } from '../domain/records/decisions.js'
import { subjectsOf } from '../domain/decision/subjects.js'
import { searchForm } from '../domain/decision/search-form.js'
import type { Subject } from '../domain/decision/types.js'

/*
 * The stored form of a decision and its subject index entries: keys, writes and parsing, with no store behind
 * them (stores/transactions.ts reads them; the index upgrade writes them before the store is open).
 */

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

/**
 * The longest subject value indexed: the longest one a search can name (an email's 320 characters). A longer
 * value (a card fingerprint is a free string of up to 8,192) is not indexed, and no search could ask for it.
 */
export const INDEXED_VALUE_MAX = 320

/**
 * A decision's entry under one of its subjects: tenant and mode first (a search never leaves its scope), then
 * the subject, its value in search form and the trace id, so one value's decisions are a key range in time order.
 */
export function subjectIndexKey (scope: Scope, subject: Subject, value: string, traceId: string): Buffer {
  return stateKey(TAG.transactionBySubject, scope.tenant, scope.mode, subject, value, traceId)
}

const INDEX_ENTRY = Buffer.alloc(0)

/** The index entries of a decision: one per subject its request names (user, email, device, IP, card). */
export function subjectIndexOps (record: DecisionSubject): WriteOp[] {
  const scope = scopeOf(record)
  const ops: WriteOp[] = []
  for (const [subject, value] of Object.entries(subjectsOf(record.request)) as Array<[Subject, string]>) {
    const form = searchForm(subject, value)
    if (form !== '' && form.length <= INDEXED_VALUE_MAX) ops.push({ type: 'put', key: subjectIndexKey(scope, subject, form, record.trace_id), value: INDEX_ENTRY })
  }
  return ops
}

/** A decision's writes: the transaction and its entries in the subject index. */
export function transactionOps (record: DecisionSubject, encoded: Uint8Array): WriteOp[] {
  return [putTransactionOp(record, encoded), ...subjectIndexOps(record)]
}

const JSON_OBJECT = 0x7b // '{', never the first byte of a DecisionRecorded (field 15 as a group)

export function parseTransaction (raw: Buffer): TransactionRecord {
  return raw[0] === JSON_OBJECT ? JSON.parse(raw.toString()) as TransactionRecord : decodeEvent(raw)
}

/** A stored transaction's trace, tenant, mode, time and request, the rest left undecoded. */
export function parseTransactionSubject (raw: Buffer): DecisionSubject {
  return raw[0] === JSON_OBJECT ? JSON.parse(raw.toString()) as DecisionSubject : decisionSubject(raw)
}

/** A stored transaction's rule hits, ruleset version and rollout buckets, the rest left undecoded. */
export function parseTransactionHits (raw: Buffer): DecisionHits {
  return raw[0] === JSON_OBJECT ? JSON.parse(raw.toString()) as DecisionHits : decisionHits(raw)
}

