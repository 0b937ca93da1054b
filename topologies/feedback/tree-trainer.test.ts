import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newLearner, type LearnerState } from '../../src/domain/model/learner.js'
import { PRIOR } from '../../src/domain/model/model.js'
import { TREE_INPUTS } from '../../src/domain/model/inputs.js'
import { openStateDb, type StateDb } from '../../src/stores/state-db.js'
import { BatchWrites } from '../../src/stream/batch-writes.js'
import { readForest, writeForest } from './tree-store.js'
import { TreeTrainer } from './tree-trainer.js'
import { tempDir } from '../../test/support/app.js'

const DAY = 86_400_000
const scope = { tenant: 'ten_1', mode: 'test' as const }
const amount = TREE_INPUTS.findIndex(i => i.name === 'amount')
const quiet = { error: () => {}, info: () => {} }
let state: StateDb

beforeAll(async () => { state = await openStateDb(tempDir('fds-trees-')) })
afterAll(async () => { await state.close() })

/** What the serving model answered: nothing kept (rows indexed before served scores were), no ranking, a perfect one. */
type Served = 'none' | 'flat' | 'perfect'
const servedScore = (served: Served, fraud: boolean) => served === 'none' ? undefined : served === 'flat' ? 0.05 : fraud ? 0.9 : 0.02

/**
 * Labelled rows of `days` days from `fromDay`: frauds above `threshold`, 40 a day, every 5th a fraud, with the
 * score the serving model answered each with (flat: every row alike, its weighted average precision 0.2).
 */
async function index (trainer: TreeTrainer, fromDay: number, days: number, threshold: number, served: Served = 'flat') {
  const writes = new BatchWrites(state)
  for (let d = fromDay; d < fromDay + days; d++) {
    for (let i = 0; i < 40; i++) {
      const fraud = i % 5 === 0
      const z = TREE_INPUTS.map(() => 0)
      z[amount] = fraud ? threshold + 10 + i : threshold - 10 - i
      trainer.index(scope, writes, `trc_${d}_${i}`, d * DAY + i * 60_000, z, fraud ? 1 : 0, servedScore(served, fraud))
    }
  }
  await state.committer.commit(writes.ops())
}

/**
 * A learner whose champion is trees-1, a one-split forest taking amounts above `threshold` for fraud, trained
 * through `day` (as the first trees are once they beat the served scores), with no challenger pending.
 */
async function withChampion (day: number, threshold: number): Promise<LearnerState> {
  const writes = new BatchWrites(state)
  const forest = { base: 0, trees: [{ feature: [amount, -1, -1], threshold: [threshold, 0, 0], left: [1, -1, -1], right: [2, -1, -1], value: [0, -3, 3] }] }
  writeForest(writes, scope, 'trees-1', { inputs: TREE_INPUTS.map(i => i.name), forest })
  await state.committer.commit(writes.ops())
  return { ...newLearner(PRIOR), champion: { version: 'trees-1', throughMs: day * DAY }, treesPublished: 1, treesThroughMs: day * DAY }
}

/** Starts a refresh at `horizonDay` and publishes it once done (the punctuation's part). */
async function refresh (trainer: TreeTrainer, s: ReturnType<typeof newLearner>, horizonDay: number) {
  trainer.maybeRefresh(scope, s, horizonDay * DAY)
  for (let i = 0; i < 400; i++) {
    const writes = new BatchWrites(state)
    const { changed, records } = await trainer.publish(scope, s, writes, horizonDay * DAY)
    if (changed) {
      await state.committer.commit(writes.ops())
      return records.map(([topic, r]) => [topic, JSON.parse(r.value.toString())] as const)
    }
    await new Promise(resolve => setTimeout(resolve, 25))
  }
  throw new Error('no refresh')
}

const SETTINGS = { everyHours: 24, windowDays: 10, minFrauds: 10, negativeSamplePercent: 100 }
/** What a refresh's records say: topic, the model's version or the audit action, and the model's role. */
const summary = (records: Awaited<ReturnType<typeof refresh>>) => records.map(([topic, r]) => [topic, r.model?.version ?? r.action, r.role])

describe('trees: champion and challenger', () => {
  it('the first trees are a challenger until they beat the scores the serving model answered with; later ones face the champion, then are promoted or rejected', async () => {
    const busy: number[] = []
    const trainer = new TreeTrainer(state, SETTINGS, quiet, n => busy.push(n))
    const s = newLearner(PRIOR)
    await index(trainer, 100, 10, 100)
    const first = await refresh(trainer, s, 110)
    // under way from its start until what it published is appended (the caller reports then)
    expect(busy).toEqual([1, 1])
    trainer.reportBusy()
    expect(busy).toEqual([1, 1, 0])
    // in shadow: the linear model keeps serving
    expect(summary(first)).toEqual([['models', 'trees-1', 'challenger'], ['audit', 'model.challenger', undefined]])
    expect(s.champion).toBeUndefined()
    expect(s.challenger).toEqual({ version: 'trees-1', throughMs: 110 * DAY })

    // two days mature; the served scores ranked them no better than chance, the trees perfectly: promoted, and the
    // next trees are a challenger
    await index(trainer, 110, 2, 100)
    const second = await refresh(trainer, s, 112)
    expect(summary(second)).toEqual([['models', 'trees-1', undefined], ['audit', 'model.promoted', undefined], ['models', 'trees-2', 'challenger'], ['audit', 'model.challenger', undefined]])
    expect(second[1]![1]).toMatchObject({ object_id: 'trees-1', data: { rows: 80, frauds: 16, champion_ap: 0.2, challenger_ap: 1, promoted: true } })
    expect(second[0]![1]).toMatchObject({ trained_through_ms: 110 * DAY, evaluation: { promoted: true } })
    expect(s).toMatchObject({ champion: { version: 'trees-1', throughMs: 110 * DAY, promotedThroughMs: 112 * DAY }, challenger: { version: 'trees-2', throughMs: 112 * DAY } })
    // drift is judged against its scores on the decisions it was compared on; no champion before it to roll back to
    expect(s.champion!.baseline!.shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1)
    expect(s.champion!.previous).toBeUndefined()

    // two more days mature: both rank them perfectly, and the newer model wins the tie; a third is trained
    await index(trainer, 112, 2, 100)
    const third = await refresh(trainer, s, 114)
    const verdict = third.find(([topic, r]) => topic === 'audit' && r.object_id === 'trees-2')![1]
    expect(verdict).toMatchObject({ action: 'model.promoted', actor: 'feedback-trainer', object_type: 'model', data: { rows: 80, frauds: 16, champion_ap: 1, challenger_ap: 1, promoted: true } })
    expect(third.find(([topic, r]) => topic === 'models' && r.model.version === 'trees-2')![1]).toMatchObject({ evaluation: { promoted: true } })
    expect(s).toMatchObject({ champion: { version: 'trees-2', throughMs: 112 * DAY, previous: { version: 'trees-1' } }, challenger: { version: 'trees-3', throughMs: 114 * DAY } })

    // then the frauds move 100 higher: trees-3 learned nothing of it, the champion neither; a challenger trained on the
    // new pattern is compared on it once it matured, and wins
    await index(trainer, 114, 10, 200)
    await refresh(trainer, s, 124)
    expect(s.challenger?.version).toBe('trees-4')
    await index(trainer, 124, 2, 200)
    const fifth = await refresh(trainer, s, 126)
    const next = fifth.find(([topic, r]) => topic === 'audit' && r.object_id === 'trees-4')![1]
    expect(next.data.challenger_ap).toBeGreaterThan(next.data.champion_ap)
    expect(s.champion?.version).toBe('trees-4')
  })

  it('rejects a challenger that ranks the matured decisions worse, and keeps the champion', async () => {
    const trainer = new TreeTrainer(state, SETTINGS, quiet)
    const s = await withChampion(310, 300) // trees-1: frauds above 300
    await index(trainer, 310, 10, 100)
    await refresh(trainer, s, 320) // trees-2, its window only the passing pattern: frauds above 100
    await index(trainer, 320, 2, 300) // the first pattern again: trees-2 takes every decision for a fraud
    const records = await refresh(trainer, s, 322)
    const verdict = records.find(([topic, r]) => topic === 'audit' && r.object_id === 'trees-2')![1]
    expect(verdict).toMatchObject({ action: 'model.rejected', data: { champion_ap: 1, promoted: false } })
    expect(verdict.data.challenger_ap).toBeLessThan(0.5)
    expect(records.find(([topic, r]) => topic === 'models' && r.model.version === 'trees-2')![1]).toMatchObject({ role: 'rejected' })
    expect(s).toMatchObject({ champion: { version: 'trees-1' }, challenger: { version: 'trees-3' } })
  })

  it('rolls a promoted champion back to the one before when its live scores drift from those it was promoted on', async () => {
    const trainer = new TreeTrainer(state, SETTINGS, quiet)
    await index(trainer, 400, 11, 100)
    const s = await withChampion(410, 100)
    await refresh(trainer, s, 411) // trees-2 in shadow
    await index(trainer, 411, 2, 100)
    await refresh(trainer, s, 413) // trees-2 promoted (a tie), trees-3 in shadow
    expect(s.champion).toMatchObject({ version: 'trees-2', previous: { version: 'trees-1' } })
    // live decisions distributed as the scores it was promoted on (its baseline): no drift
    const { edges, shares } = s.champion!.baseline!
    let live = 0
    shares.forEach((share, b) => {
      for (let i = 0; i < Math.round(share * 2000); i++, live++) trainer.observe(s, 'trees-2', b < edges.length ? edges[b]! : 1, (413 + i / 2000) * DAY)
    })
    trainer.observe(s, 'trees-1', 0.99, 413 * DAY) // another model's decision: not counted
    expect(s.champion!.live!.reduce((a, b) => a + b, 0)).toBe(live)
    expect(live).toBeGreaterThanOrEqual(1000) // enough to be judged
    expect(await trainer.publish(scope, s, new BatchWrites(state), 413 * DAY)).toEqual({ changed: false, records: [] })
    // then every decision scores high: the distribution drifts, and once a whole day was seen the champion
    // before comes back
    for (let i = 0; i < 4000; i++) trainer.observe(s, 'trees-2', 0.99, (413.5 + i / 16000) * DAY)
    expect(await trainer.publish(scope, s, new BatchWrites(state), 413 * DAY)).toEqual({ changed: false, records: [] }) // 18 hours so far
    trainer.observe(s, 'trees-2', 0.99, 414.1 * DAY)
    const writes = new BatchWrites(state)
    const records = (await trainer.publish(scope, s, writes, 413 * DAY)).records.map(([topic, r]) => [topic, JSON.parse(r.value.toString())] as const)
    await state.committer.commit(writes.ops())
    expect(records.map(([topic, r]) => [topic, r.model?.version ?? r.action])).toEqual([['models', 'trees-1'], ['audit', 'model.rolled_back']])
    expect(records[0]![1]).toMatchObject({ rollback: true, rolled_back: { from: 'trees-2', reason: 'score_drift' } })
    expect(records[1]![1].data).toMatchObject({ from: 'trees-2', reason: 'score_drift', live_decisions: live + 4001 })
    expect(records[1]![1].data.psi).toBeGreaterThan(0.25)
    expect(s.champion).toMatchObject({ version: 'trees-1' })
    expect(s.champion!.previous).toBeUndefined()
  })

  it('rolls a promoted champion back when the one before ranks the decisions matured since its promotion better, and compares the pending challenger with that one', async () => {
    const trainer = new TreeTrainer(state, SETTINGS, quiet)
    const s = await withChampion(510, 100) // trees-1: frauds above 100
    await index(trainer, 510, 10, 200)
    await refresh(trainer, s, 520) // trees-2 in shadow: frauds above 200
    await index(trainer, 520, 2, 200)
    await refresh(trainer, s, 522) // trees-2 ranks the new pattern better: promoted; trees-3 in shadow
    expect(s.champion).toMatchObject({ version: 'trees-2', promotedThroughMs: 522 * DAY, previous: { version: 'trees-1' } })
    await index(trainer, 522, 2, 100) // the first pattern is back: trees-1 ranks it, trees-2 does not
    const records = await refresh(trainer, s, 524)
    expect(records.map(([topic, r]) => [topic, r.model?.version ?? r.action, r.object_id])).toEqual([
      ['models', 'trees-1', undefined], ['audit', 'model.rolled_back', 'trees-1'],
      ['models', 'trees-3', undefined], ['audit', 'model.rejected', 'trees-3'],
      ['models', 'trees-4', undefined], ['audit', 'model.challenger', 'trees-4']
    ])
    expect(records[0]![1]).toMatchObject({ rollback: true, rolled_back: { from: 'trees-2', reason: 'quality' } })
    const rolledBack = records[1]![1].data
    expect(rolledBack).toMatchObject({ from: 'trees-2', reason: 'quality', rows: 80, frauds: 16, previous_ap: 1, rollback: true })
    expect(rolledBack.champion_ap).toBeLessThan(0.95)
    // the pending challenger was judged against the restored champion
    expect(records[3]![1].data).toMatchObject({ champion_ap: 1, promoted: false })
    expect(s).toMatchObject({ champion: { version: 'trees-1' }, challenger: { version: 'trees-4' } })
  })

  it('waits with a challenger until enough frauds matured after its horizon, training none meanwhile', async () => {
    const trainer = new TreeTrainer(state, SETTINGS, quiet)
    const s = { ...newLearner(PRIOR), champion: { version: 'trees-1', throughMs: 0 }, challenger: { version: 'trees-2', throughMs: 200 * DAY }, treesPublished: 2, treesThroughMs: 200 * DAY }
    await index(trainer, 200, 1, 100) // 8 frauds: not enough
    expect(await refresh(trainer, s, 201)).toEqual([])
    expect(s).toMatchObject({ treesPublished: 2, challenger: { version: 'trees-2' }, treesThroughMs: 201 * DAY })
  })

  it('rejects first trees that rank the matured decisions worse than the scores the serving model answered with: no champion, and the next trees try', async () => {
    const trainer = new TreeTrainer(state, SETTINGS, quiet)
    const s = newLearner(PRIOR)
    await index(trainer, 600, 10, 100)
    await refresh(trainer, s, 610) // trees-1 in shadow: frauds above 100
    // frauds above 300 now: the trees take every decision alike, the serving model ranked every fraud first
    await index(trainer, 610, 2, 300, 'perfect')
    const records = await refresh(trainer, s, 612)
    expect(summary(records)).toEqual([['models', 'trees-1', 'rejected'], ['audit', 'model.rejected', undefined], ['models', 'trees-2', 'challenger'], ['audit', 'model.challenger', undefined]])
    expect(records[1]![1]).toMatchObject({ object_id: 'trees-1', actor: 'feedback-trainer', data: { rows: 80, frauds: 16, champion_ap: 1, promoted: false } })
    expect(records[1]![1].data.challenger_ap).toBeLessThan(0.5)
    expect(records[0]![1].evaluation).toMatchObject({ promoted: false })
    expect(s.champion).toBeUndefined()
    expect(s.challenger).toEqual({ version: 'trees-2', throughMs: 612 * DAY })
    expect(await readForest(state, scope, 'trees-1')).toBeUndefined()
  })

  it('compares first trees only on the decisions that kept the score they were served with', async () => {
    const trainer = new TreeTrainer(state, SETTINGS, quiet)
    const s = newLearner(PRIOR)
    await index(trainer, 700, 10, 100)
    await refresh(trainer, s, 710) // trees-1 in shadow
    await index(trainer, 710, 1, 100, 'none') // indexed before served scores were kept: left out
    await index(trainer, 711, 1, 100) // 8 frauds: not enough
    expect(await refresh(trainer, s, 712)).toEqual([])
    expect(s).toMatchObject({ challenger: { version: 'trees-1' }, treesPublished: 1, treesThroughMs: 712 * DAY })
    expect(s.champion).toBeUndefined()
    await index(trainer, 712, 1, 100)
    const records = await refresh(trainer, s, 713)
    expect(records[1]![1]).toMatchObject({ action: 'model.promoted', object_id: 'trees-1', data: { rows: 80, frauds: 16, champion_ap: 0.2, challenger_ap: 1, promoted: true } })
    expect(s).toMatchObject({ champion: { version: 'trees-1' }, challenger: { version: 'trees-2' } })
  })
})
