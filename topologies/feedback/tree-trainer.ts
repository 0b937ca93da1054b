import { newId } from '../../src/domain/ids.js'
import { checkQuality, evaluateAgainstServed, evaluateChallenger, type ModelEvaluation, type QualityCheck, type ServedInputs } from '../../src/domain/model/challenger.js'
import { baselineOf, binOf, DRIFT_BINS, MIN_LIVE_DECISIONS, MIN_LIVE_SPAN_MS, psi, PSI_ROLLBACK, type ScoreBaseline } from '../../src/domain/model/drift.js'
import { DEFAULT_TRAINING, predictLogit, type Forest } from '../../src/domain/model/gbdt.js'
import type { LearnerState } from '../../src/domain/model/learner.js'
import { scoreOf, type TreeModel } from '../../src/domain/model/model.js'
import { TREE_INPUTS } from '../../src/domain/model/inputs.js'
import { forestOver } from '../../src/domain/model/stored-inputs.js'
import { auditRecord } from '../../src/domain/records/audit.js'
import type { LogRecord } from '../../src/domain/records/log-record.js'
import { modelRecord, type ModelRecord } from '../../src/domain/records/models.js'
import { scopeId, type Scope } from '../../src/domain/scope.js'
import type { StateDb } from '../../src/stores/state-db.js'
import type { BatchWrites } from '../../src/stream/batch-writes.js'
import type { TreeTrainingSettings } from '../../src/stream/topology.js'
import { trainInWorker } from './model-training.js'
import { deleteForest, deleteTrainingRow, dropTrainingRows, readForest, trainingRows, writeForest, writeTrainingRow, type TrainingRow } from './tree-store.js'

const DAY_MS = 86_400_000

/** What one refresh of a scope's trees found: the pending challenger's verdict, and a new forest. */
interface Refreshed {
  throughMs: number
  /** The champion's quality against the one it replaced, on the decisions matured since its promotion. */
  quality?: { version: string, check: QualityCheck }
  /** With the challenger's scores on the decisions it was compared on: its baseline if promoted. */
  verdict?: { version: string, evaluation: ModelEvaluation, baseline: ScoreBaseline }
  forest?: Forest
  rows: number
  frauds: number
}

/** A forest's scores as decisions report them (scoreOf) on rows, and their weighted baseline. */
function scoredBaseline (forest: Forest, rows: readonly TrainingRow[]): ScoreBaseline {
  return baselineOf(rows.map(r => scoreOf(predictLogit(forest, r.z))), rows.map(r => r.w))
}

/** A training row that kept the score the service answered its decision with. */
const hasServed = (row: TrainingRow): row is TrainingRow & ServedInputs => row.s !== undefined

/** A trained forest as the model a version names, over the current TREE_INPUTS. */
const treeModel = (version: string, forest: Forest): TreeModel => ({ kind: 'trees', version, inputs: TREE_INPUTS.map(i => i.name), forest })

/** A deterministic share in [0, 1) of a trace id (FNV-1a): whether a legitimate row joins the sample. */
function shareOf (trace: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < trace.length; i++) h = Math.imul(h ^ trace.charCodeAt(i), 0x01000193)
  return (h >>> 0) / 4294967296
}

/**
 * The trees of every tenant and mode the feedback topology learns for: their training index, their refreshes
 * in a worker thread every `everyHours` of recorded time (when the service recorded the decisions, never their
 * event_time: feedback.ts), and champion and challenger.
 * - Every training is a challenger: it scores in shadow, and once the decisions that matured after its training
 *   horizon hold `minFrauds` frauds, it is compared on them with the champion (evaluateChallenger) and promoted or
 *   rejected. While it waits, no newer challenger is trained.
 * - The first trees have no champion to face: they face the model that serves (the online linear one), on the
 *   scores the service answered those decisions with (evaluateAgainstServed; rows indexed before served scores
 *   were kept are left out). Promoted, they are the champion; rejected, the linear model keeps serving and being
 *   published (feedback.ts), and the refresh that rejected them trains the next first trees, as after a rejected
 *   challenger. Trees trained on a new tenant's first days see censored history (every customer looks new) and
 *   may rank fraud worse than the linear model.
 * - A promoted champion rolls back to the champion before it when its live scores drift from those it was
 *   promoted on (population stability index over PSI_ROLLBACK once its live decisions are MIN_LIVE_DECISIONS
 *   over a day of recorded time, src/domain/model/drift.ts), or when its quality does: on the decisions matured since its
 *   promotion (once they hold `minFrauds` frauds) the champion before it does better by more than
 *   QUALITY_ROLLBACK_MARGIN (src/domain/model/challenger.ts). A challenger pending then is compared with the restored one.
 * Every step is a record on `models` (the registry shows champion and challenger) and an audit entry.
 */
export class TreeTrainer {
  private readonly negativeRate: number
  private readonly running = new Set<string>()
  private readonly done = new Map<string, Refreshed>()

  constructor (
    private readonly state: StateDb,
    private readonly settings: TreeTrainingSettings,
    private readonly logger: { error(o: object, msg: string): void, info(o: object, msg: string): void },
    /** Told how many refreshes are training or waiting to be published (the `/healthz` in_progress). */
    private readonly busy: (n: number) => void = () => {}
  ) {
    this.negativeRate = settings.negativeSamplePercent / 100
  }

  /** Reports the refreshes under way; the caller of publish calls it once what it published is appended. */
  reportBusy (): void {
    this.busy(this.running.size + this.done.size)
  }

  /**
   * Records a labelled row's inputs (and the score the service answered it with, when known) in the training
   * index (all frauds, a sample of the rest), or drops it.
   */
  index (scope: Scope, writes: BatchWrites, trace: string, t: number, z: number[], y: 0 | 1, s?: number): void {
    if (y === 1 || shareOf(trace) < this.negativeRate) writeTrainingRow(writes, scope, t, trace, { z, y, w: y === 1 ? 1 : 1 / this.negativeRate, ...(s === undefined ? {} : { s }) })
    else deleteTrainingRow(writes, scope, t, trace)
  }

  /** Starts a refresh when the scope's maturity horizon moved `everyHours` past the last one. */
  maybeRefresh (scope: Scope, s: LearnerState, horizonMs: number): void {
    const id = scopeId(scope)
    if (horizonMs - (s.treesThroughMs ?? 0) < this.settings.everyHours * 3_600_000 || this.running.has(id) || this.done.has(id)) return
    this.running.add(id)
    this.reportBusy()
    this.refresh(scope, horizonMs, s.champion, s.challenger).then(
      result => { this.done.set(id, result) },
      err => { this.logger.error({ err, scope }, 'refreshing trees failed') }
    ).finally(() => { this.running.delete(id); this.reportBusy() })
  }

  private async refresh (scope: Scope, throughMs: number, champion: LearnerState['champion'], challenger: LearnerState['challenger']): Promise<Refreshed> {
    const frauds = (rows: readonly TrainingRow[]) => rows.reduce((n, r) => n + r.y, 0)
    let quality: Refreshed['quality']
    // The champion the challenger must beat: the one before it when the current one is about to roll back.
    let incumbent = champion?.version
    if (champion?.previous !== undefined && champion.promotedThroughMs !== undefined) {
      const live = await this.rows(scope, champion.promotedThroughMs, throughMs)
      const [a, p] = frauds(live) < this.settings.minFrauds ? [] : await Promise.all([this.forest(scope, champion.version), this.forest(scope, champion.previous.version)])
      if (a !== undefined && p !== undefined) {
        quality = { version: champion.version, check: checkQuality(live, a, p) }
        if (quality.check.rollback) incumbent = champion.previous.version
      }
    }
    let verdict: Refreshed['verdict']
    if (challenger !== undefined) {
      const matured = await this.rows(scope, challenger.throughMs, throughMs)
      // The first trees have no champion: they face the scores the serving model answered with, on the rows that kept them.
      const served = incumbent === undefined ? matured.filter(hasServed) : undefined
      const compared = served ?? matured
      if (frauds(compared) < this.settings.minFrauds) return { throughMs, quality, rows: 0, frauds: 0 }
      const [a, b] = await Promise.all([incumbent === undefined ? undefined : this.forest(scope, incumbent), this.forest(scope, challenger.version)])
      if (b !== undefined) {
        const evaluation = served !== undefined ? evaluateAgainstServed(served, b) : a === undefined ? undefined : evaluateChallenger(matured, a, b)
        if (evaluation !== undefined) verdict = { version: challenger.version, evaluation, baseline: scoredBaseline(b, compared) }
      }
    }
    const rows = await this.rows(scope, throughMs - this.settings.windowDays * DAY_MS, throughMs)
    const n = frauds(rows)
    if (n < this.settings.minFrauds || n === rows.length) return { throughMs, quality, verdict, rows: rows.length, frauds: n }
    const columns = TREE_INPUTS.map((_, f) => Float64Array.from(rows, r => r.z[f] ?? 0))
    const forest = await trainInWorker({ columns, labels: Uint8Array.from(rows, r => r.y), weights: Float64Array.from(rows, r => r.w) }, DEFAULT_TRAINING)
    return { throughMs, quality, verdict, forest, rows: rows.length, frauds: n }
  }

  /** Counts a decision's score (at its recorded time) in its champion's live distribution, when the champion scored it. */
  observe (s: LearnerState, modelVersion: string, score: number, atMs: number): void {
    const c = s.champion
    if (c?.baseline === undefined || c.version !== modelVersion) return
    c.live ??= new Array<number>(DRIFT_BINS).fill(0)
    c.live[binOf(c.baseline.edges, score)]!++
    c.liveFromMs = Math.min(c.liveFromMs ?? atMs, atMs)
    c.liveToMs = Math.max(c.liveToMs ?? atMs, atMs)
  }

  private rows (scope: Scope, fromMs: number, toMs: number): Promise<TrainingRow[]> {
    return trainingRows(this.state, scope, fromMs, toMs)
  }

  /** A stored forest over TREE_INPUTS (its splits moved by name), to score the training rows with. */
  private async forest (scope: Scope, version: string): Promise<Forest | undefined> {
    const stored = await readForest(this.state, scope, version)
    return stored === undefined ? undefined : forestOver(stored, TREE_INPUTS, `forest ${version} of ${scope.tenant}/${scope.mode}`)
  }

  /**
   * Applies a finished refresh of the scope to its learner state `s` (written by the caller): the challenger's
   * verdict, then the new forest as challenger; and drops the training index before the window. Returns the
   * records to emit (models and audit), and whether `s` changed (a refresh that published nothing still moves
   * its horizon).
   */
  async publish (scope: Scope, s: LearnerState, writes: BatchWrites, nowMs: number): Promise<{ changed: boolean, records: Array<[topic: 'models' | 'audit', record: LogRecord]> }> {
    const out: Array<['models' | 'audit', LogRecord]> = []
    const emit = (record: ModelRecord, action: string, data: Record<string, unknown>) => {
      out.push(['models', modelRecord(record)])
      out.push(['audit', auditRecord({ id: newId('aud', nowMs), at_ms: nowMs, tenant_id: scope.tenant, mode: scope.mode, actor: 'feedback-trainer', action, object_type: 'model', object_id: record.model.version, trace_id: null, data })])
    }
    /** A stored forest as the model it was published as: over the inputs it names. */
    const model = async (version: string): Promise<TreeModel | undefined> => {
      const stored = await readForest(this.state, scope, version)
      return stored === undefined ? undefined : { kind: 'trees', version, inputs: stored.inputs, forest: stored.forest }
    }
    /** The champion rolls back to the one before it (a rollback record always replaces the active version). */
    const rollBack = async (reason: 'score_drift' | 'quality', data: object) => {
      const c = s.champion!
      const back = await model(c.previous!.version)
      if (back === undefined) return
      const rolledBack = { from: c.version, reason }
      emit({ tenant_id: scope.tenant, mode: scope.mode, model: back, trained: s.trained, trained_through_ms: c.previous!.throughMs, created_ms: nowMs, rollback: true, rolled_back: rolledBack },
        'model.rolled_back', { ...rolledBack, ...data })
      deleteForest(writes, scope, c.version)
      s.champion = { version: c.previous!.version, throughMs: c.previous!.throughMs, baseline: c.previous!.baseline }
    }
    const c = s.champion
    const live = c?.live?.reduce((a, b) => a + b, 0) ?? 0
    const span = (c?.liveToMs ?? 0) - (c?.liveFromMs ?? 0)
    if (c?.baseline !== undefined && c.previous !== undefined && live >= MIN_LIVE_DECISIONS && span >= MIN_LIVE_SPAN_MS) {
      const drift = psi(c.baseline.shares, c.live!)
      if (drift > PSI_ROLLBACK) await rollBack('score_drift', { psi: Math.round(drift * 10000) / 10000, live_decisions: live })
    }
    const id = scopeId(scope)
    const done = this.done.get(id)
    if (done === undefined) return { changed: out.length > 0, records: out }
    this.done.delete(id)
    s.treesThroughMs = done.throughMs
    await dropTrainingRows(this.state, writes, scope, done.throughMs - this.settings.windowDays * DAY_MS)
    const quality = done.quality
    if (quality?.check.rollback === true && s.champion?.version === quality.version && s.champion.previous !== undefined) {
      await rollBack('quality', quality.check)
    }
    if (done.verdict !== undefined && s.challenger !== undefined) {
      const { version, evaluation } = done.verdict
      const challenger = await model(version)
      if (challenger !== undefined) {
        const record = { tenant_id: scope.tenant, mode: scope.mode, model: challenger, trained: s.trained, trained_through_ms: s.challenger.throughMs, created_ms: nowMs, evaluation }
        if (evaluation.promoted) {
          const before = s.champion
          if (before?.previous !== undefined) deleteForest(writes, scope, before.previous.version)
          // the first champion has none before it to roll back to
          s.champion = { ...s.challenger, promotedThroughMs: done.throughMs, baseline: done.verdict.baseline, previous: before === undefined ? undefined : { version: before.version, throughMs: before.throughMs, baseline: before.baseline } }
          emit(record, 'model.promoted', { ...evaluation })
        } else {
          deleteForest(writes, scope, version)
          emit({ ...record, role: 'rejected' }, 'model.rejected', { ...evaluation })
        }
      }
      s.challenger = undefined
    }
    if (done.forest !== undefined) {
      s.treesPublished = (s.treesPublished ?? 0) + 1
      const trees = treeModel(`trees-${s.treesPublished}`, done.forest)
      writeForest(writes, scope, trees.version, { inputs: trees.inputs, forest: done.forest })
      const record: ModelRecord = { tenant_id: scope.tenant, mode: scope.mode, model: trees, trained: s.trained, trained_through_ms: done.throughMs, created_ms: nowMs }
      const training = { rows: done.rows, frauds: done.frauds, trained_through_ms: done.throughMs }
      s.challenger = { version: trees.version, throughMs: done.throughMs }
      emit({ ...record, role: 'challenger' }, 'model.challenger', training)
      this.logger.info({ scope, version: trees.version, ...training }, 'trees trained')
    }
    return { changed: true, records: out }
  }
}
