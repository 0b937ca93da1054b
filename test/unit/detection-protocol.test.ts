import { describe, expect, it } from 'vitest'
import { meanFigures, testSet, weekFigures } from '../../src/domain/detection-protocol.js'

// Training days 7-8, delay day 9, test days 10-11. Frauds: x on day 7, y on day 8, z on day 9, w on day 10.
const periods = { trainDays: 2, delayDays: 1, testDays: 2 }
const fraudCards = new Map([[7, new Set(['x'])], [8, new Set(['y'])], [9, new Set(['z'])], [10, new Set(['w'])]])
const scored = [
  { day: 9, card: 'z', score: 0.9, label: 1 as const },
  { day: 10, card: 'x', score: 0.9, label: 1 as const }, { day: 10, card: 'z', score: 0.3, label: 1 as const }, { day: 10, card: 'v', score: 0.5, label: 0 as const },
  { day: 11, card: 'z', score: 0.8, label: 1 as const }, { day: 11, card: 'w', score: 0.6, label: 1 as const }, { day: 11, card: 'y', score: 0.4, label: 1 as const }, { day: 11, card: 'v', score: 0.2, label: 0 as const },
  { day: 12, card: 'w', score: 0.9, label: 1 as const }
]

describe("the handbook's test set", () => {
  it('drops the training week\'s compromised cards, and on test day d those of training start + train + d - 1', () => {
    // day 10 knows x and y (training days); day 11 also z (day 9); w (day 10) is not known within the week
    expect(testSet(scored, fraudCards, 10, periods).map(s => `${s.day}${s.card}`)).toEqual(['10z', '10v', '11w', '11v'])
  })

  it("grades the week: AUC and AP over the remaining week, card precision@100 per day and averaged", () => {
    const week = weekFigures(scored, fraudCards, 10, periods)
    expect(week).toMatchObject({ startDay: 10, transactions: 4, removed: 3, frauds: 2 })
    // positives z 0.3 and w 0.6 against negatives 0.5 and 0.2: 3 of 4 pairs ordered
    expect(week.auc).toBeCloseTo(3 / 4)
    // ranked w (1), v (0), z (1), v (0): (1/2)(1/1) + (1/2)(2/3)
    expect(week.ap).toBeCloseTo(5 / 6)
    expect(week.days.map(d => [d.day, d.transactions, d.frauds, d.cardPrecision100])).toEqual([[10, 2, 1, 0.01], [11, 2, 1, 0.01]])
    expect(week.cardPrecision100).toBeCloseTo(0.01)
  })

  it('averages several test weeks, each with its own removal', () => {
    const later = weekFigures(scored, fraudCards, 11, periods)
    // training days 8-9 know y and z; day 11 adds day 9's, day 12 adds day 10's (w)
    expect(testSet(scored, fraudCards, 11, periods).map(s => `${s.day}${s.card}`)).toEqual(['11w', '11v'])
    const mean = meanFigures([weekFigures(scored, fraudCards, 10, periods), later])
    expect(mean.auc).toBeCloseTo((3 / 4 + 1) / 2)
  })
})
