import type { WriteOp } from './rocks.js'
import { deviceSeenKey, markDeviceSeenOp } from './device-history.js'
import { lastLocationOps } from './last-location.js'
import { putTransactionOp } from './transactions.js'
import { scopeOf } from '../domain/scope.js'
import type { DecisionSubject } from '../domain/records/decisions.js'
import type { LastLocation } from '../domain/features/extract.js'

/** What the store knows already that a decision must not replace. */
export interface KnownBefore {
  /** The decision's (user, device) pair, seen at its time or earlier. */
  device: boolean
  /** A position of the user from after the decision's time. */
  laterLocation: boolean
}

/**
 * What the stored device first-seen time and last position say of a decision made at `eventTimeMs`. Decisions
 * reach a store in no particular order of time (backdated requests, other instances' decisions), so the
 * earliest first-seen time and the latest position are kept, on the request path as in the materializer.
 */
export function knownBefore (deviceFirstSeenMs: number | undefined, lastLocation: LastLocation | undefined, eventTimeMs: number): KnownBefore {
  return {
    device: deviceFirstSeenMs !== undefined && deviceFirstSeenMs <= eventTimeMs,
    laterLocation: lastLocation !== undefined && lastLocation.at_ms > eventTimeMs
  }
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
