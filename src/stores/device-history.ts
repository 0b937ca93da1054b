import type { ScoreRequest } from '../domain/decision/types.js'
import type { WriteOp } from './rocks.js'
import { stateKey, TAG } from './keys.js'
import type { Scope } from '../domain/scope.js'

/** Devices seen per user: the key exists once a (user, device) pair has been scored; its value, the first sight. */
export function deviceSeenKey (scope: Scope, request: ScoreRequest): Buffer | undefined {
  if (request.user_id === undefined || request.device_id === undefined) return undefined
  return stateKey(TAG.deviceSeen, scope.tenant, scope.mode, request.user_id, request.device_id)
}

/**
 * The state column keeps the greatest value merged into a key (byte order: state-db.ts): a first sight is
 * written as the time before MAX_SAFE_INTEGER, 8 bytes big-endian, so the greatest is the earliest.
 */
export function encodeFirstSeen (eventTimeMs: number): Buffer {
  const value = Buffer.alloc(8)
  value.writeBigUInt64BE(BigInt(Number.MAX_SAFE_INTEGER - Math.max(0, Math.trunc(eventTimeMs))))
  return value
}

export const decodeFirstSeen = (raw: Buffer): number => Number.MAX_SAFE_INTEGER - Number(raw.readBigUInt64BE(0))

/** The pair seen at `eventTimeMs`: merged, so the earliest sight stays whatever order decisions are applied in. */
export function markDeviceSeenOp (key: Buffer, eventTimeMs: number): WriteOp {
  return { type: 'merge', key, value: encodeFirstSeen(eventTimeMs), column: undefined }
}
