import { describe, expect, it } from 'vitest'
import {
  DEFAULT_LABEL_NOISE_SEED, labelCounts, labelNoiseOf, labelsOf, type LabelCounts, type LabelNoise, type ReplayEvent, type ReplayLabel
} from '../../src/app/replay/replay-events.js'

const HOUR = 3_600_000
const DAY = 24 * HOUR
/** The frauds' label delays of the synthetic events: every fraud takes one of these, in turn. */
const DELAYS = [6 * HOUR, 1.5 * DAY, 7 * DAY, 30 * DAY]

/** `n` events an hour apart, every `every`-th a fraud known after one of DELAYS. */
function synthetic (n: number, every: number): ReplayEvent[] {
  return Array.from({ length: n }, (_, i) => {
    const timeMs = Date.parse('2025-01-06T00:00:00Z') + i * HOUR
    return i % every === 0 ? { timeMs, request: { i }, fraudKnownMs: timeMs + DELAYS[(i / every) % DELAYS.length]! } : { timeMs, request: { i } }
  })
}

async function countsOf (events: ReplayEvent[]): Promise<LabelCounts> {
  return labelCounts((async function * () { yield * events })())
}

/** Each event with the label it is fed back with (in the replay's order, as replayEvents asks). */
async function labelled (events: ReplayEvent[], noise: LabelNoise | undefined): Promise<Array<{ e: ReplayEvent, label: ReplayLabel | undefined }>> {
  const labelOf = labelsOf(noise, await countsOf(events))
  return events.map(e => ({ e, label: labelOf(e) }))
}

const events = synthetic(5_000, 5) // 1,000 frauds, 4,000 legitimate events

describe('label noise: which labels the replay sends wrong', () => {
  it('reads LABEL_NOISE (0..0.5, unset or 0: none) and LABEL_NOISE_SEED from the environment', () => {
    expect(labelNoiseOf({})).toBeUndefined()
    expect(labelNoiseOf({ LABEL_NOISE: '0' })).toBeUndefined()
    expect(labelNoiseOf({ LABEL_NOISE: '0.1' })).toEqual({ share: 0.1, seed: DEFAULT_LABEL_NOISE_SEED })
    expect(labelNoiseOf({ LABEL_NOISE: '0.5', LABEL_NOISE_SEED: '7' })).toEqual({ share: 0.5, seed: 7 })
    for (const bad of ['0.6', '-0.1', 'ten', 'NaN']) expect(() => labelNoiseOf({ LABEL_NOISE: bad })).toThrow(/LABEL_NOISE/)
    expect(() => labelNoiseOf({ LABEL_NOISE: '0.1', LABEL_NOISE_SEED: '1.5' })).toThrow(/LABEL_NOISE_SEED/)
  })

  it('counts the frauds with their delays and the legitimate events', async () => {
    const counts = await countsOf(synthetic(12, 4))
    expect(counts).toEqual({ fraudDelaysMs: [DELAYS[0], DELAYS[1], DELAYS[2]], legitimate: 9 })
  })

  it('without noise (none, or a share of 0) feeds every fraud back as fraud when it becomes known, and nothing else', async () => {
    for (const noise of [undefined, { share: 0, seed: 1 }]) {
      const labels = await labelled(events, noise)
      for (const { e, label } of labels) {
        expect(label).toEqual(e.fraudKnownMs === undefined ? undefined : { dueMs: e.fraudKnownMs, outcome: 'fraud', wrong: false })
      }
    }
  })

  it('is the same for the same seed, and another for another seed', async () => {
    const a = await labelled(events, { share: 0.1, seed: 1 })
    const b = await labelled(events, { share: 0.1, seed: 1 })
    const c = await labelled(events, { share: 0.1, seed: 2 })
    expect(b.map(x => x.label)).toEqual(a.map(x => x.label))
    expect(c.map(x => x.label)).not.toEqual(a.map(x => x.label))
  })

  it('sends about the asked share wrong, half each way: frauds as safe (share / 2 of them), legitimate events as fraud (share / 2 times the frauds)', async () => {
    for (const share of [0.1, 0.4]) {
      const labels = await labelled(events, { share, seed: DEFAULT_LABEL_NOISE_SEED })
      const frauds = labels.filter(x => x.e.fraudKnownMs !== undefined)
      const safe = frauds.filter(x => x.label?.outcome === 'safe').length
      const falseReports = labels.filter(x => x.e.fraudKnownMs === undefined && x.label !== undefined).length
      // expected share / 2 x 1,000 each (50 or 200); binomial spread about 7 or 13
      expect(Math.abs(safe - share / 2 * 1_000)).toBeLessThan(share === 0.1 ? 22 : 40)
      expect(Math.abs(falseReports - share / 2 * 1_000)).toBeLessThan(share === 0.1 ? 22 : 40)
      // of all dispositions sent (every fraud's and the false reports), share / (1 + share / 2) are wrong: 9.5 % at 0.1
      const dispositions = frauds.length + falseReports
      expect(Math.abs((safe + falseReports) / dispositions - share / (1 + share / 2))).toBeLessThan(0.03)
      // every fraud still gets its case, when it becomes known
      for (const { e, label } of frauds) expect(label).toMatchObject({ dueMs: e.fraudKnownMs, wrong: label!.outcome === 'safe' })
    }
  })

  it('reports as fraud only legitimate events, each at its event time plus a delay of one of the frauds', async () => {
    const labels = await labelled(events, { share: 0.5, seed: 3 })
    const reports = labels.filter(x => x.label?.outcome === 'fraud' && x.label.wrong)
    expect(reports.length).toBeGreaterThan(150)
    const delays = new Set<number>()
    for (const { e, label } of reports) {
      expect(e.fraudKnownMs).toBeUndefined()
      delays.add(label!.dueMs - e.timeMs)
    }
    // drawn from the frauds' own delays, all of them in use
    expect([...delays].sort((x, y) => x - y)).toEqual(DELAYS)
    // no legitimate event is ever fed back as safe, no fraud as a false report
    expect(labels.filter(x => x.e.fraudKnownMs === undefined && x.label?.outcome === 'safe')).toEqual([])
  })

  it('reports every legitimate event when the frauds outnumber them so much that the share asks for more', async () => {
    const fraudHeavy = synthetic(60, 1).concat(synthetic(5, 100).map(e => ({ ...e, fraudKnownMs: undefined })))
    const labels = await labelled(fraudHeavy, { share: 0.5, seed: 1 })
    expect(labels.slice(60).every(x => x.label?.outcome === 'fraud' && x.label.wrong)).toBe(true)
  })
})
