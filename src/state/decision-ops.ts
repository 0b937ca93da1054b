import type { TransactionRecord } from '../records/transaction-record.js'
import type { WriteOp } from '../storage/rocks.js'
import { deviceSeenKey, markDeviceSeenOp } from './device-history.js'
import { lastLocationOps } from './last-location.js'
import { putTransactionOp } from './transactions.js'
import type { Scope } from './velocity.js'

/** The scope of anything that names its tenant and livemode: a recorded decision, a feedback label. */
export const scopeOf = (r: Pick<TransactionRecord, 'tenant_id' | 'livemode'>): Scope => ({ tenant: r.tenant_id, mode: r.livemode ? 'live' : 'test' })

/**
 * Local state a decision changes besides velocity: its transaction record, the device history and the user's
 * last position.
 * Used on the request path and by the materializer applying other instances' decisions.
 */
export function decisionRecordOps (record: TransactionRecord, deviceAlreadyKnown: boolean): WriteOp[] {
  const scope = scopeOf(record)
  const ops = [putTransactionOp(record), ...lastLocationOps(scope, record.request, record.created_ms)]
  const seenKey = deviceSeenKey(scope, record.request)
  if (seenKey !== undefined && !deviceAlreadyKnown) ops.push(markDeviceSeenOp(seenKey, record.created_ms))
  return ops
}
