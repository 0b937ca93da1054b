import { createHash } from 'node:crypto'
import type { ScoreRequest } from '../decision/types.js'

/**
 * Rollout bucket in [0, 100) from hash(tenant, pack, subject), never a random draw: the same subject stays
 * in the same bucket, so a pack at p% covers buckets below p and raising p only adds subjects.
 */
export function rolloutBucket (tenant: string, pack: string, subject: string): number {
  const digest = createHash('sha256').update(`${tenant}\u0000${pack}\u0000${subject}`).digest()
  return (digest.readUInt32BE(0) % 10000) / 100
}

/** Who a request is about, for rollouts: the first of user, device, email, IP it names. */
export function rolloutSubject (request: ScoreRequest, fallback: string): string {
  return request.user_id ?? request.device_id ?? request.email ?? request.ip ?? fallback
}
