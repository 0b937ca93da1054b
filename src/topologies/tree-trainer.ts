import { newId } from '../domain/ids.js'
import { evaluateChallenger, type ModelEvaluation } from '../domain/model/challenger.js'
import { DEFAULT_TRAINING, type Forest } from '../domain/model/gbdt.js'
import type { LearnerState } from '../domain/model/learner.js'
import type { TreeModel } from '../domain/model/model.js'
import { TREE_INPUTS } from '../domain/model/tree-inputs.js'
import { auditRecord } from '../domain/records/audit.js'
import type { LogRecord } from '../domain/records/log-record.js'
import { modelRecord, type ModelRecord } from '../domain/records/models.js'
import { scopeId, type Scope } from '../domain/scope.js'
import { stateKey, TAG } from '../stores/keys.js'
import { scan } from '../stores/rocks.js'
import type { StateDb } from '../stores/state-db.js'
import type { BatchWrites } from '../stream/batch-writes.js'
import type { TreeTrainingSettings } from './index.js'
import { trainInWorker } from './model-training.js'

const DAY_MS = 86_400_000

/** A labelled decision in the trees' training index: inputs, label, and its weight (1 / its sampling rate). */
export interface TrainingRow { z: number[], y: 0 | 1, w: number }

/** What one refresh of a scope's trees found: the pending challenger's verdict, and a new forest. */
interface Refreshed {
  throughMs: number
  verdict?: { version: string, evaluation: ModelEvaluation }
  forest?: Forest
  rows: number
  frauds: number
}

const scopeParts = (s: Scope) => [s.tenant, s.mode] as const
/** The training index: (scope, event time, trace) -> TrainingRow, frauds all, legitimate rows sampled. */
const trainingKey = (s: Scope, t: number, trace: string) => stateKey(TAG.learner, 't', ...scopeParts(s), String(t).padStart(15, '0'), trace)
/** The forests of the scope's champion and challenger, by version. */
const forestKey = (s: Scope, version: string) => stateKey(TAG.learner, 'o', ...scopeParts(s), version)
const json = (v: unknown) => Buffer.from(JSON.stringify(v))

/** A deterministic share in [0, 1) of a trace id (FNV-1a): whether a legitimate row joins the sample. */
function shareOf (trace: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < trace.length; i++) h = Math.imul(h ^ trace.charCodeAt(i), 0x01000193)
  return (h >>> 0) / 4294967296
}

/**
 * The trees of every tenant and mode the feedback topology learns for: their training index, their refreshes
 * in a worker thread every `everyHours` of event time, and champion and challenger.
 * - The first trees become the champion (the online linear model was the fallback until then).
 * - Each later training is a challenger: it scores in shadow, and once the decisions that matured after its
 *   training horizon hold `minFrauds` frauds, it is compared with the champion on them (evaluateChallenger) and
 *   promoted or rejected. While it waits, no newer challenger is trained.
 * Every step is a record on `models` (the registry shows champion and challenger) and an audit entry.
 */
export class TreeTrainer {
  private readonly negativeRate: number
  private readonly running = new Set<string>()
  private readonly done = new Map<string, Refreshed>()

  constructor (
    private readonly state: StateDb,
    private readonly settings: TreeTrainingSettings,
    private readonly logger: { error(o: object, msg: string): void, info(o: object, msg: string): void }
  ) {
    this.negativeRate = settings.negativeSamplePercent / 100
  }

  /** Records a labelled row's inputs in the training index (all frauds, a sample of the rest), or drops it. */
  index (scope: Scope, writes: BatchWrites, trace: string, t: number, z: number[], y: 0 | 1): void {
    const key = trainingKey(scope, t, trace)
    if (y === 1 || shareOf(trace) < this.negativeRate) writes.put(key, json({ z, y, w: y === 1 ? 1 : 1 / this.negativeRate } satisfies TrainingRow))
    else writes.del(key)
  }

  /** Starts a refresh when the scope's maturity horizon moved `everyHours` past the last one. */
  maybeRefresh (scope: Scope, s: LearnerState, horizonMs: number): void {
    const id = scopeId(scope)
    if (horizonMs - (s.treesThroughMs ?? 0) < this.settings.everyHours * 3_600_000 || this.running.has(id) || this.done.has(id)) return
    this.running.add(id)
    this.refresh(scope, horizonMs, s.champion, s.challenger).then(
      result => { this.done.set(id, result) },
      err => { this.logger.error({ err, scope }, 'feedback: refreshing trees failed') }
    ).finally(() => this.running.delete(id))
  }

  private async refresh (scope: Scope, throughMs: number, champion: LearnerState['champion'], challenger: LearnerState['challenger']): Promise<Refreshed> {
    let verdict: Refreshed['verdict']
    if (champion !== undefined && challenger !== undefined) {
      const matured = await this.rows(scope, challenger.throughMs, throughMs)
      if (matured.reduce((n, r) => n + r.y, 0) < this.settings.minFrauds) return { throughMs, rows: 0, frauds: 0 }
      const [a, b] = await Promise.all([this.forest(scope, champion.version), this.forest(scope, challenger.version)])
      if (a !== undefined && b !== undefined) verdict = { version: challenger.version, evaluation: evaluateChallenger(matured, a, b) }
    }
    const rows = await this.rows(scope, throughMs - this.settings.windowDays * DAY_MS, throughMs)
    const frauds = rows.reduce((n, r) => n + r.y, 0)
    if (frauds < this.settings.minFrauds || frauds === rows.length) return { throughMs, verdict, rows: rows.length, frauds }
    const columns = TREE_INPUTS.map((_, f) => Float64Array.from(rows, r => r.z[f] ?? 0))
    const forest = await trainInWorker({ columns, labels: Uint8Array.from(rows, r => r.y), weights: Float64Array.from(rows, r => r.w) }, DEFAULT_TRAINING)
    return { throughMs, verdict, forest, rows: rows.length, frauds }
  }

  private async rows (scope: Scope, fromMs: number, toMs: number): Promise<TrainingRow[]> {
    const rows: TrainingRow[] = []
    for await (const [, raw] of scan(this.state.db, trainingKey(scope, Math.max(0, fromMs), ''), trainingKey(scope, toMs, ''))) rows.push(JSON.parse(raw.toString()) as TrainingRow)
    return rows
  }

  private async forest (scope: Scope, version: string): Promise<Forest | undefined> {
    const raw = await this.state.get(forestKey(scope, version))
    return raw === undefined ? undefined : JSON.parse(raw.toString()) as Forest
  }

  /**
   * Applies a finished refresh of the scope to its learner state `s` (written by the caller): the challenger's
   * verdict, then the new forest as champion (the first) or challenger; and drops the training index before
   * the window. Returns the records to emit (models and audit).
   */
  async publish (scope: Scope, s: LearnerState, writes: BatchWrites, nowMs: number): Promise<Array<[topic: 'models' | 'audit', record: LogRecord]>> {
    const id = scopeId(scope)
    const done = this.done.get(id)
    if (done === undefined) return []
    this.done.delete(id)
    s.treesThroughMs = done.throughMs
    for await (const [old] of scan(this.state.db, trainingKey(scope, 0, ''), trainingKey(scope, done.throughMs - this.settings.windowDays * DAY_MS, ''))) writes.del(old)
    const out: Array<['models' | 'audit', LogRecord]> = []
    const emit = (record: ModelRecord, action: string, data: Record<string, unknown>) => {
      out.push(['models', modelRecord(record)])
      out.push(['audit', auditRecord({ id: newId('aud', nowMs), at_ms: nowMs, tenant_id: scope.tenant, mode: scope.mode, actor: 'feedback-trainer', action, object_type: 'model', object_id: record.model.version, trace_id: null, data })])
    }
    const model = async (version: string): Promise<TreeModel | undefined> => {
      const forest = await this.forest(scope, version)
      return forest === undefined ? undefined : { kind: 'trees', version, inputs: TREE_INPUTS.map(i => i.name), forest }
    }
    if (done.verdict !== undefined && s.challenger !== undefined) {
      const { version, evaluation } = done.verdict
      const challenger = await model(version)
      if (challenger !== undefined) {
        const record = { tenant_id: scope.tenant, mode: scope.mode, model: challenger, trained: s.trained, trained_through_ms: s.challenger.throughMs, created_ms: nowMs, evaluation }
        if (evaluation.promoted) {
          if (s.champion !== undefined) writes.del(forestKey(scope, s.champion.version))
          s.champion = s.challenger
          emit(record, 'model.promoted', { ...evaluation })
        } else {
          writes.del(forestKey(scope, version))
          emit({ ...record, role: 'rejected' }, 'model.rejected', { ...evaluation })
        }
      }
      s.challenger = undefined
    }
    if (done.forest !== undefined) {
      s.treesPublished = (s.treesPublished ?? 0) + 1
      const trees: TreeModel = { kind: 'trees', version: `trees-${s.treesPublished}`, inputs: TREE_INPUTS.map(i => i.name), forest: done.forest }
      writes.put(forestKey(scope, trees.version), json(done.forest))
      const record: ModelRecord = { tenant_id: scope.tenant, mode: scope.mode, model: trees, trained: s.trained, trained_through_ms: done.throughMs, created_ms: nowMs }
      const training = { rows: done.rows, frauds: done.frauds, trained_through_ms: done.throughMs }
      if (s.champion === undefined) {
        s.champion = { version: trees.version, throughMs: done.throughMs }
        emit(record, 'model.promoted', training)
      } else {
        s.challenger = { version: trees.version, throughMs: done.throughMs }
        emit({ ...record, role: 'challenger' }, 'model.challenger', training)
      }
      this.logger.info({ scope, version: trees.version, ...training }, 'feedback: trees trained')
    }
    return out
  }
}
