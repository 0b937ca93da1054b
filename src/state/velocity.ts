import type { Features, ScoreRequest, Subject } from '../decision/types.js'
import { u64, readU64, type WriteOp } from '../storage/rocks.js'
import { stateKey, TAG } from './keys.js'

/**
 * Bucketed velocity counters, by event time: minute buckets (for windows up to 1 h) and hour buckets
 * (up to 30 d), keyed by tenant, mode, dimension and value. Counters live in a column with RocksDB's
 * uint64add merge operator, so increments commute and need no read-modify-write. Amounts are summed in
 * thousandths.
 */
const MINUTE = 60_000
const HOUR = 3_600_000
const DIMENSIONS: ReadonlyArray<[Subject, string]> = [['user_id', 'user'], ['device_id', 'device'], ['ip', 'ip'], ['email', 'email']]

export interface Scope { tenant: string, mode: 'live' | 'test' }

function bucketKey (scope: Scope, dim: string, value: string, res: 'm' | 'h', bucket: number, field: 'c' | 's'): Buffer {
  return stateKey(TAG.velocity, scope.tenant, scope.mode, dim, value, res, String(bucket), field)
}

/** Merge ops adding one event to every dimension it names. */
export function velocityIncrements (scope: Scope, request: ScoreRequest, eventTimeMs: number, column: unknown): WriteOp[] {
  const ops: WriteOp[] = []
  const minute = Math.floor(eventTimeMs / MINUTE)
  const hour = Math.floor(eventTimeMs / HOUR)
  const one = u64(1)
  const amount = u64(Math.round((request.amount ?? 0) * 1000))
  for (const [subject, dim] of DIMENSIONS) {
    const value = request[subject]
    if (value === undefined) continue
    ops.push({ type: 'merge', key: bucketKey(scope, dim, value, 'm', minute, 'c'), value: one, column })
    ops.push({ type: 'merge', key: bucketKey(scope, dim, value, 'h', hour, 'c'), value: one, column })
    ops.push({ type: 'merge', key: bucketKey(scope, dim, value, 'h', hour, 's'), value: amount, column })
  }
  return ops
}

/** A window read: the keys to fetch and how to fold their values into named features. */
export interface VelocityPlan {
  keys: Buffer[]
  fold(values: Array<Buffer | undefined>, into: Features): void
}

/**
 * Plans the reads for the velocity features: per dimension the count over the last hour (60 minute buckets),
 * and for the user also count and amount over the last 24 h (24 hour buckets). The current bucket is included.
 */
export function velocityPlan (scope: Scope, request: ScoreRequest, eventTimeMs: number): VelocityPlan {
  const keys: Buffer[] = []
  const slices: Array<{ feature: string, from: number, to: number, scale: number }> = []
  const minute = Math.floor(eventTimeMs / MINUTE)
  const hour = Math.floor(eventTimeMs / HOUR)
  const range = (feature: string, dim: string, value: string, res: 'm' | 'h', last: number, n: number, field: 'c' | 's', scale = 1) => {
    const from = keys.length
    for (let b = last - n + 1; b <= last; b++) keys.push(bucketKey(scope, dim, value, res, b, field))
    slices.push({ feature, from, to: keys.length, scale })
  }
  for (const [subject, dim] of DIMENSIONS) {
    const value = request[subject]
    if (value === undefined) continue
    range(`${dim}_count_1h`, dim, value, 'm', minute, 60, 'c')
    if (subject === 'user_id') {
      range('user_count_24h', dim, value, 'h', hour, 24, 'c')
      range('user_amount_24h', dim, value, 'h', hour, 24, 's', 1 / 1000)
    }
  }
  return {
    keys,
    fold (values, into) {
      for (const s of slices) {
        let total = 0
        for (let i = s.from; i < s.to; i++) total += readU64(values[i])
        into[s.feature] = total * s.scale
      }
    }
  }
}
