import type { WriteOp } from './rocks.js'
import { deviceSeenKey, markDeviceSeenOp } from './device-history.js'
import { lastLocationOps } from './last-location.js'
import { transactionOps } from './transactions.js'
import { scopeOf } from '../domain/scope.js'
import type { DecisionSubject } from '../domain/records/decisions.js'
import type { LastLocation } from '../domain/features/extract.js'

/** What the store holds already that makes a decision's write of it useless (the merge would keep the old). */
export interface KnownBefore {
  /** The decision's (user, device) pair, seen at its time or earlier. */
  device: boolean
  /** A position of the user from after the decision's time. */
  laterLocation: boolean
}

/** What a stored device first-seen time and last position make useless to write for a decision at `eventTimeMs`. */
export function knownBefore (deviceFirstSeenMs: number | undefined, lastLocation: LastLocation | undefined, eventTimeMs: number): KnownBefore {
  return {
    device: deviceFirstSeenMs !== undefined && deviceFirstSeenMs <= eventTimeMs,
    laterLocation: lastLocation !== undefined && lastLocation.at_ms > eventTimeMs
  }
}

const NOTHING_KNOWN: KnownBefore = { device: false, laterLocation: false }

/**
 * Local state a decision changes besides velocity: its transaction record with its subject index entries, the
 * device history and the user's last position. Used on the request path and by the materializer applying other
 * instances' decisions, which come in no particular order of time: the first sight and the position are merged
 * (the column keeps the earliest sight and the latest position, device-history.ts and last-location.ts), so no
 * order of writes, and no write between a read and a write, changes what stays. `known` (what the caller read)
 * only spares writes that would change nothing. `encoded`: the record's Protobuf bytes.
 */
export function decisionRecordOps (record: DecisionSubject, encoded: Uint8Array, known: KnownBefore = NOTHING_KNOWN): WriteOp[] {
  const scope = scopeOf(record)
  const ops = [...transactionOps(record, encoded), ...(known.laterLocation ? [] : lastLocationOps(scope, record.request, record.created_ms))]
  const seenKey = deviceSeenKey(scope, record.request)
  if (seenKey !== undefined && !known.device) ops.push(markDeviceSeenOp(seenKey, record.created_ms))
  return ops
}
