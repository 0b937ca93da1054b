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

export const parseLastLocation = (raw: Buffer | undefined): LastLocation | undefined => raw === undefined ? undefined : JSON.parse(raw.toString()) as LastLocation

/** Replaces the user's last position when the event carries one. */
export function lastLocationOps (scope: Scope, request: ScoreRequest, eventTimeMs: number): WriteOp[] {
  const key = lastLocationKey(scope, request)
  const point = geoFacts(request.geo).point
  if (key === undefined || point === undefined) return []
  const value: LastLocation = { point, at_ms: eventTimeMs }
  return [{ type: 'put', key, value: Buffer.from(JSON.stringify(value)) }]
}
