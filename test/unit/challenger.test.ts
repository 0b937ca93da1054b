import { describe, expect, it } from 'vitest'
import { checkQuality, evaluateAgainstServed, evaluateChallenger, QUALITY_ROLLBACK_MARGIN } from '../../src/domain/model/challenger.js'
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

  it('promotes a challenger whose average precision differs from the champion\'s only past the 4 decimals it records', () => {
    // the champion ranks both frauds first; the challenger ties them with a legitimate row of weight 0.00005: AP 0.999975
    const rowsWith = (w: number) => [
      { z: [0.9, 0.9], y: 1 as const, w: 1 }, { z: [0.8, 0.8], y: 1 as const, w: 1 },
      { z: [0.1, 0.1], y: 0 as const, w: 10 }, { z: [0.2, 0.2], y: 0 as const, w: 10 }, { z: [0.3, 0.9], y: 0 as const, w }
    ]
    expect(evaluateChallenger(rowsWith(0.00005), stump(0, 0.5), stump(1, 0.5))).toMatchObject({ champion_ap: 1, challenger_ap: 1, promoted: true })
    const clearly = evaluateChallenger(rowsWith(1), stump(0, 0.5), stump(1, 0.5))
    expect(clearly).toMatchObject({ champion_ap: 1, promoted: false })
    expect(clearly.challenger_ap).toBeLessThan(1)
  })

  it('rolls a champion back only when the one before ranks its matured decisions better by more than the margin', () => {
    const worse = checkQuality(rows, stump(1, 0.5), stump(0, 0.5))
    expect(worse).toMatchObject({ rows: 4, frauds: 2, previous_ap: 1, rollback: true })
    expect(1 - worse.champion_ap).toBeGreaterThan(QUALITY_ROLLBACK_MARGIN)
    expect(checkQuality(rows, stump(0, 0.5), stump(1, 0.5)).rollback).toBe(false)
    expect(checkQuality(rows, stump(0, 0.5), stump(0, 0.5)).rollback).toBe(false)
  })

  describe('first trees against the scores the serving model answered with', () => {
    /** The rows with served scores: `ranked` puts both frauds first, `muddled` one legitimate row between them. */
    const served = (scores: number[]) => rows.map((r, i) => ({ ...r, s: scores[i]! }))
    const ranked = served([0.7, 0.6, 0.1, 0.05])
    const muddled = served([0.7, 0.2, 0.3, 0.05])

    it('promotes trees that rank the matured decisions better than the served scores did, and on a tie', () => {
      const e = evaluateAgainstServed(muddled, stump(0, 0.5))
      expect(e).toMatchObject({ rows: 4, frauds: 2, challenger_ap: 1, promoted: true })
      expect(e.champion_ap).toBeLessThan(1) // the served scores' weighted average precision
      expect(evaluateAgainstServed(ranked, stump(0, 0.5))).toMatchObject({ champion_ap: 1, challenger_ap: 1, promoted: true })
    })

    it('rejects trees that rank them worse', () => {
      const e = evaluateAgainstServed(ranked, stump(1, 0.5))
      expect(e).toMatchObject({ rows: 4, frauds: 2, champion_ap: 1, promoted: false })
      expect(e.challenger_ap).toBeLessThan(1)
    })

    it('takes the trees\' scores as a decision reports them, to 4 decimals like the served ones: a finer ranking is a tie', () => {
      // log-odds -12 and -11 both report 0.0000: the trees rank nothing, where the served scores ranked both frauds first
      const faint: Forest = { base: 0, trees: [{ feature: [0, -1, -1], threshold: [0.5, 0, 0], left: [1, -1, -1], right: [2, -1, -1], value: [0, -12, -11] }] }
      expect(evaluateChallenger(rows, stump(1, 0.5), faint).challenger_ap).toBe(1)
      const e = evaluateAgainstServed(ranked, faint)
      expect(e).toMatchObject({ champion_ap: 1, promoted: false })
      expect(e.challenger_ap).toBeCloseTo(2 / 22)
    })
  })
})
