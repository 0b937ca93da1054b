import type { LastLocation } from '../domain/features/extract.js'
import { geoFacts } from '../domain/features/geo.js'
import type { ScoreRequest } from '../domain/decision/types.js'
import type { WriteOp } from './rocks.js'
import { stateKey, TAG } from './keys.js'
import type { Scope } from '../domain/scope.js'

/** A user's last known position (geo.lat/lon of their latest scored event), for impossible travel. */
export function lastLocationKey (scope: Scope, request: ScoreRequest): Buffer | undefined {
  return request.user_id === undefined ? undefined : stateKey(TAG.lastLocation, scope.tenant, scope.mode, request.user_id)
}

/**
 * 8 bytes of time, big-endian, then the latitude and longitude (doubles): the state column keeps the greatest
 * value merged into a key (state-db.ts), so the latest position stays, and two of the same millisecond resolve
 * the same way on every instance.
 */
export function encodeLastLocation (location: LastLocation): Buffer {
  const value = Buffer.alloc(24)
  value.writeBigUInt64BE(BigInt(Math.max(0, Math.trunc(location.at_ms))))
  value.writeDoubleBE(location.point.lat, 8)
  value.writeDoubleBE(location.point.lon, 16)
  return value
}

export const parseLastLocation = (raw: Buffer | undefined): LastLocation | undefined =>
  raw === undefined ? undefined : { point: { lat: raw.readDoubleBE(8), lon: raw.readDoubleBE(16) }, at_ms: Number(raw.readBigUInt64BE(0)) }

/** Merges the event's position when it carries one: the latest stays, whatever order decisions are applied in. */
export function lastLocationOps (scope: Scope, request: ScoreRequest, eventTimeMs: number): WriteOp[] {
  const key = lastLocationKey(scope, request)
  const point = geoFacts(request.geo).point
  if (key === undefined || point === undefined) return []
  return [{ type: 'merge', key, value: encodeLastLocation({ point, at_ms: eventTimeMs }), column: undefined }]
}
