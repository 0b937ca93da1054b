import { describe, expect, it } from 'vitest'
import { modelGroupOf, systematicSample, trainingRows, type TrainingEvent } from '../../src/domain/detection-baselines-accounts.js'
import { DAY_MS } from '../../src/domain/detection-protocol.js'

const START = 20_000 * DAY_MS
/** An event on day `day` of the file at `hour`, its fraud known `knownDays` later (legitimate without). */
const ev = (day: number, event: string, knownDays?: number, hour = 12): TrainingEvent => {
  const timeMs = START + day * DAY_MS + hour * 3_600_000
  return { timeMs, event, knownMs: knownDays === undefined ? undefined : timeMs + knownDays * DAY_MS }
}
const all = () => true

describe('the baselines\' training sets (account events)', () => {
  // retrained at the midnight starting day 14
  const events = [
    ev(6, 'login', 1, 23), // before day 7: never
    ev(7, 'login', 0.25, 0), // day 7's first hour: a fraud known the same day
    ev(7, 'payment'),
    ev(10, 'payout', 3.5), // known day 13 at 24:00 = the midnight itself: not before it, so 0
    ev(12, 'signup', 1.4), // known day 13, 21:36: 1
    ev(13, 'account_update', 20), // known long after: 0 at this midnight
    ev(13, 'payment', undefined, 23),
    ev(14, 'login', 0, 0) // the midnight's own day: never
  ]

  it('takes the events from day 7 up to the midnight, labelled 1 when their fraud is known before it', () => {
    const rows = trainingRows(events, { fileStartMs: START, midnightMs: START + 14 * DAY_MS, keepNegative: all, negativeWeight: 1 })
    expect(rows.map(r => [r.index, r.label])).toEqual([[1, 1], [2, 0], [3, 0], [4, 1], [5, 0], [6, 0]])
    // a later midnight: what became known since is 1
    const later = trainingRows(events, { fileStartMs: START, midnightMs: START + 35 * DAY_MS, keepNegative: all, negativeWeight: 1 })
    expect(later.map(r => [r.index, r.label])).toEqual([[1, 1], [2, 0], [3, 1], [4, 1], [5, 1], [6, 0], [7, 1]])
  })

  it('samples the rows labelled 0 and weights them back; every known fraud stays, weighing 1', () => {
    const rows = trainingRows(events, { fileStartMs: START, midnightMs: START + 14 * DAY_MS, keepNegative: i => i % 2 === 0, negativeWeight: 2 })
    expect(rows).toEqual([{ index: 1, label: 1, weight: 1 }, { index: 2, label: 0, weight: 2 }, { index: 4, label: 1, weight: 1 }, { index: 6, label: 0, weight: 2 }])
    const tenth = systematicSample(0.1)
    expect(Array.from({ length: 100 }, (_, i) => i).filter(tenth)).toEqual([9, 19, 29, 39, 49, 59, 69, 79, 89, 99])
    expect(Array.from({ length: 5 }, (_, i) => i).filter(systematicSample(1))).toHaveLength(5)
  })

  it('another window for comparison: the days ending some days before the midnight, as the service trains', () => {
    const rows = (windowDays?: number, lagDays?: number) => trainingRows(events, { fileStartMs: START, midnightMs: START + 14 * DAY_MS, keepNegative: all, negativeWeight: 1, windowDays, lagDays }).map(r => [r.index, r.label])
    // days 10..12 (three days ending a day before day 14's midnight; day 13 left out)
    expect(rows(3, 1)).toEqual([[3, 0], [4, 1]])
    // a window reaching before day 7 starts at day 7; no lag: up to the midnight
    expect(rows(30)).toEqual(rows())
    expect(rows(undefined, 4)).toEqual([[1, 1], [2, 0]])
  })

  it('one model per event group: login with account_update, the others alone', () => {
    expect(['login', 'account_update', 'payment', 'payout', 'signup', 'refund'].map(modelGroupOf))
      .toEqual(['login+account_update', 'login+account_update', 'payment', 'payout', 'signup', 'all'])
    const of = (group: ReturnType<typeof modelGroupOf>) => trainingRows(events, { fileStartMs: START, midnightMs: START + 14 * DAY_MS, keepNegative: all, negativeWeight: 1, group }).map(r => r.index)
    expect(of('login+account_update')).toEqual([1, 5])
    expect(of('payment')).toEqual([2, 6])
    expect(of('payout')).toEqual([3])
    expect(of('signup')).toEqual([4])
  })
})
