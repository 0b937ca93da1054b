import { describe, expect, it } from 'vitest'
import { overviewOf } from '../../src/domain/decision/overview.js'
import type { TransactionRecord } from '../../src/domain/records/decisions.js'

const at = Date.parse('2026-11-24T12:00:00Z')
const tx = (offsetMs: number, action: 'approve' | 'flag' | 'reject', score: number, latency: number) =>
  ({ created_ms: at + offsetMs, decision: { action, score, latency_ms: latency, rules: [] } }) as unknown as TransactionRecord

describe('overviewOf', () => {
  it('counts decisions per minute by action, bins scores by decile, takes nearest-rank latency percentiles', () => {
    const records = [tx(0, 'approve', 0.05, 2), tx(30_000, 'flag', 0.72, 4), tx(61_000, 'reject', 1, 9), tx(62_000, 'approve', 0.1, 3), tx(3 * 60_000, 'approve', 0.2, 1)]
    const o = overviewOf(records, at, at + 3 * 60_000)
    expect(o.decisions).toBe(4)
    expect(o.per_minute).toEqual([
      { minute: at / 1000, approve: 1, flag: 1, reject: 0 },
      { minute: at / 1000 + 60, approve: 1, flag: 0, reject: 1 },
      { minute: at / 1000 + 120, approve: 0, flag: 0, reject: 0 }
    ])
    expect(o.score_histogram).toEqual([1, 1, 0, 0, 0, 0, 0, 1, 0, 1])
    expect(o.latency_ms).toEqual({ p50: 3, p99: 9 })
  })

  it('has no percentiles without decisions', () => {
    expect(overviewOf([], at, at + 60_000)).toMatchObject({ decisions: 0, latency_ms: { p50: null, p99: null } })
  })
})
