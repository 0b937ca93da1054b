import type { WriteOp } from './rocks.js'
import { deviceSeenKey, markDeviceSeenOp } from './device-history.js'
import { lastLocationOps } from './last-location.js'
import { putTransactionOp } from './transactions.js'
import { scopeOf } from '../domain/scope.js'
import type { DecisionSubject } from '../domain/records/decisions.js'

/** What the store knows already that a decision must not replace. */
export interface KnownBefore {
  /** The decision's (user, device) pair, seen at its time or earlier. */
  device: boolean
  /** A position of the user from after the decision's time. */
  laterLocation: boolean
}

/**
 * Local state a decision changes besides velocity: its transaction record, the device history and the user's
 * last position.
 * Used on the request path and by the materializer applying other instances' decisions (which come in no
 * particular order of time). `encoded`: the record's Protobuf bytes.
 */
export function decisionRecordOps (record: DecisionSubject, known: KnownBefore, encoded: Uint8Array): WriteOp[] {
  const scope = scopeOf(record)
  const ops = [putTransactionOp(record, encoded), ...(known.laterLocation ? [] : lastLocationOps(scope, record.request, record.created_ms))]
  const seenKey = deviceSeenKey(scope, record.request)
  if (seenKey !== undefined && !known.device) ops.push(markDeviceSeenOp(seenKey, record.created_ms))
  return ops
}
