import type { WriteOp } from './rocks.js'
import { deviceSeenKey, markDeviceSeenOp } from './device-history.js'
import { lastLocationOps } from './last-location.js'
import { putTransactionOp } from './transactions.js'
import { scopeOf } from '../domain/scope.js'
import type { DecisionSubject } from '../domain/records/decisions.js'

/**
 * Local state a decision changes besides velocity: its transaction record, the device history and the user's
 * last position.
 * Used on the request path and by the materializer applying other instances' decisions. `encoded`: the
 * record's Protobuf bytes.
 */
export function decisionRecordOps (record: DecisionSubject, deviceAlreadyKnown: boolean, encoded: Uint8Array): WriteOp[] {
  const scope = scopeOf(record)
  const ops = [putTransactionOp(record, encoded), ...lastLocationOps(scope, record.request, record.created_ms)]
  const seenKey = deviceSeenKey(scope, record.request)
  if (seenKey !== undefined && !deviceAlreadyKnown) ops.push(markDeviceSeenOp(seenKey, record.created_ms))
  return ops
}
