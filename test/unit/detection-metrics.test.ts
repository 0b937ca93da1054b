import { describe, expect, it } from 'vitest'
import { aucRoc, averagePrecision, cardPrecisionAtK } from '../../src/domain/detection-metrics.js'

describe('detection metrics', () => {
  it('AUC ROC: 1 for a perfect ranking, 0.5 for ties, matches a hand-computed case', () => {
    expect(aucRoc([{ score: 0.9, label: 1 }, { score: 0.1, label: 0 }])).toBe(1)
    expect(aucRoc([{ score: 0.5, label: 1 }, { score: 0.5, label: 0 }])).toBe(0.5)
    // positives at 0.8 and 0.4, negatives at 0.6, 0.3, 0.2: 5 of 6 pairs ordered
    expect(aucRoc([{ score: 0.8, label: 1 }, { score: 0.4, label: 1 }, { score: 0.6, label: 0 }, { score: 0.3, label: 0 }, { score: 0.2, label: 0 }])).toBeCloseTo(5 / 6)
  })

  it('average precision as scikit-learn: ranks 1 and 3 of 4 -> (1 + 2/3) / 2', () => {
    expect(averagePrecision([{ score: 0.9, label: 1 }, { score: 0.8, label: 0 }, { score: 0.7, label: 1 }, { score: 0.1, label: 0 }])).toBeCloseTo((1 + 2 / 3) / 2)
  })

  it('card precision@k groups by card and drops only the cards detected on earlier days (compromised and in the top k)', () => {
    const items = [
      { day: 1, card: 'a', score: 0.9, label: 1 as const }, { day: 1, card: 'a', score: 0.2, label: 0 as const },
      { day: 1, card: 'b', score: 0.8, label: 0 as const }, { day: 1, card: 'c', score: 0.1, label: 1 as const },
      { day: 2, card: 'a', score: 0.99, label: 1 as const }, { day: 2, card: 'c', score: 0.7, label: 1 as const }, { day: 2, card: 'b', score: 0.6, label: 0 as const }
    ]
    // day 1: top 2 are a (fraud) and b; a is detected, c (fraud, ranked third) is not. Day 2 without a: c and b.
    expect(cardPrecisionAtK(items, 2)).toEqual([{ day: 1, precision: 0.5 }, { day: 2, precision: 0.5 }])
    expect(cardPrecisionAtK(items, 1)).toEqual([{ day: 1, precision: 1 }, { day: 2, precision: 1 }])
    // over k, also when fewer cards were seen; with k = 100 day 1 detects a and c, and day 2 keeps only b
    expect(cardPrecisionAtK(items, 100)).toEqual([{ day: 1, precision: 0.02 }, { day: 2, precision: 0 }])
  })
})

describe('weighted average precision', () => {
  it('counts each item by its weight: a negative of weight 2 is two negatives', () => {
    const weighted = averagePrecision([{ score: 0.9, label: 1 }, { score: 0.8, label: 0, weight: 2 }, { score: 0.7, label: 1 }])
    const repeated = averagePrecision([{ score: 0.9, label: 1 }, { score: 0.8, label: 0 }, { score: 0.8, label: 0 }, { score: 0.7, label: 1 }])
    expect(weighted).toBeCloseTo(repeated)
    expect(weighted).toBeCloseTo((1 + 2 / 4) / 2)
  })
})
