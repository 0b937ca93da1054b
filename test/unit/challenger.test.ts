import { describe, expect, it } from 'vitest'
import { checkQuality, evaluateChallenger, QUALITY_ROLLBACK_MARGIN } from '../../src/domain/model/challenger.js'
import type { Forest } from '../../src/domain/model/gbdt.js'

/** A one-split forest: log-odds 3 when x[f] > t, else -3. */
const stump = (f: number, t: number): Forest => ({ base: 0, trees: [{ feature: [f, -1, -1], threshold: [t, 0, 0], left: [1, -1, -1], right: [2, -1, -1], value: [0, -3, 3] }] })

describe('champion and challenger', () => {
  const rows = [
    { z: [0.9, 0.1], y: 1 as const, w: 1 }, { z: [0.8, 0.9], y: 1 as const, w: 1 },
    { z: [0.1, 0.8], y: 0 as const, w: 10 }, { z: [0.2, 0.2], y: 0 as const, w: 10 }
  ]

  it('promotes a challenger that ranks the matured decisions better', () => {
    const e = evaluateChallenger(rows, stump(1, 0.5), stump(0, 0.5))
    expect(e).toMatchObject({ rows: 4, frauds: 2, challenger_ap: 1, promoted: true })
    expect(e.champion_ap).toBeLessThan(1)
  })

  it('keeps the champion against a worse challenger, and promotes on a tie', () => {
    expect(evaluateChallenger(rows, stump(0, 0.5), stump(1, 0.5)).promoted).toBe(false)
    expect(evaluateChallenger(rows, stump(0, 0.5), stump(0, 0.5)).promoted).toBe(true)
  })

  it('rolls a champion back only when the one before ranks its matured decisions better by more than the margin', () => {
    const worse = checkQuality(rows, stump(1, 0.5), stump(0, 0.5))
    expect(worse).toMatchObject({ rows: 4, frauds: 2, previous_ap: 1, rollback: true })
    expect(1 - worse.champion_ap).toBeGreaterThan(QUALITY_ROLLBACK_MARGIN)
    expect(checkQuality(rows, stump(0, 0.5), stump(1, 0.5)).rollback).toBe(false)
    expect(checkQuality(rows, stump(0, 0.5), stump(0, 0.5)).rollback).toBe(false)
  })
})
