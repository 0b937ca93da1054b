import { describe, expect, it } from 'vitest'
import { baselineOf, binOf, psi } from '../../src/domain/model/drift.js'

describe('score drift', () => {
  const scores = Array.from({ length: 1000 }, (_, i) => i / 1000)
  const baseline = baselineOf(scores, scores.map(() => 1))

  it('bins at the deciles, a tenth in each', () => {
    expect(baseline.edges).toHaveLength(9)
    for (const share of baseline.shares) expect(share).toBeCloseTo(0.1, 2)
  })

  it('is about 0 for the same distribution and above 0.25 when scores shift up', () => {
    const same = new Array(10).fill(0)
    for (const s of scores) same[binOf(baseline.edges, s)]++
    expect(psi(baseline.shares, same)).toBeLessThan(0.01)
    const shifted = new Array(10).fill(0)
    for (const s of scores) shifted[binOf(baseline.edges, Math.min(0.999, s + 0.3))]++
    expect(psi(baseline.shares, shifted)).toBeGreaterThan(0.25)
  })

  it('weighs scores: a weight of 9 counts nine times', () => {
    const weighted = baselineOf([0.1, 0.9], [9, 1])
    expect(weighted.shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1)
    expect(weighted.shares[binOf(weighted.edges, 0.1)]).toBeCloseTo(0.9)
  })
})
