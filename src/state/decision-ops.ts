import type { TransactionRecord } from '../records/transaction-record.js'
import type { WriteOp } from '../storage/rocks.js'
import { deviceSeenKey, markDeviceSeenOp } from './device-history.js'
import type { StateDb } from './state-db.js'
import { putTransactionOp } from './transactions.js'
import { velocityIncrements, type Scope } from './velocity.js'

export const scopeOf = (r: TransactionRecord): Scope => ({ tenant: r.tenant_id, mode: r.livemode ? 'live' : 'test' })

/**
 * Local state a decision changes: its transaction record, velocity counters and device history.
 * Used on the request path and by the materializer applying other instances' decisions.
 */
export function decisionStateOps (state: StateDb, record: TransactionRecord, deviceAlreadyKnown: boolean): WriteOp[] {
  const scope = scopeOf(record)
  const ops = [putTransactionOp(record), ...velocityIncrements(scope, record.request, record.created_ms, state.velocity)]
  const seenKey = deviceSeenKey(scope, record.request)
  if (seenKey !== undefined && !deviceAlreadyKnown) ops.push(markDeviceSeenOp(seenKey, record.created_ms))
  return ops
}
