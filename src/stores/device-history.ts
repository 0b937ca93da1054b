import type { ScoreRequest } from '../domain/decision/types.js'
import type { WriteOp } from './rocks.js'
import { stateKey, TAG } from './keys.js'
import type { Scope } from '../domain/scope.js'

/** Devices seen per user: the key exists once a (user, device) pair has been scored; value = first-seen ms. */
export function deviceSeenKey (scope: Scope, request: ScoreRequest): Buffer | undefined {
  if (request.user_id === undefined || request.device_id === undefined) return undefined
  return stateKey(TAG.deviceSeen, scope.tenant, scope.mode, request.user_id, request.device_id)
}

export function markDeviceSeenOp (key: Buffer, eventTimeMs: number): WriteOp {
  return { type: 'put', key, value: Buffer.from(String(eventTimeMs)) }
}
