import { INPUT_SET, inputValues, treeValues } from '../../src/domain/model/inputs.js'
import { round4 } from '../../src/domain/model/model.js'
import { TreeTrainer } from './tree-trainer.js'
import { RolloutGuard } from './rollout-guard.js'
import { ROLLOUT_RUNS, type GuardedRuns } from './rollout-runs.js'
import { DUE_FROM, LEARNERS, readDueFrom, readLearner, scanLearners, writeDueFrom, writeLearner } from './learner-store.js'
import { deletePendingLabel, deleteRow, PENDING_LABELS, readPendingLabel, readRow, ROWS, writePendingLabel, writeRow, type Row } from './row-store.js'
import { addDueEntry, DUE_INDEX, dueEntries, type DueEntry, type DuePhase } from './due-index.js'
import { FORESTS, TRAINING_INDEX } from './tree-store.js'
import type { FeedbackSettings } from './settings.js'
import { learn, newLearner, snapshot, type LearnerState } from '../../src/domain/model/learner.js'
import { scopeId, scopeOf, type Scope } from '../../src/domain/scope.js'
import type { BatchWrites } from '../../src/stream/batch-writes.js'
import type { Batch, Processor } from '../../src/stream/processor.js'
import type { ConsumedRecord } from '../../src/stream/eventlog/event-log.js'
import type { Topology } from '../../src/stream/topology.js'
import { recordedMsOf, type TransactionRecord } from '../../src/domain/records/decisions.js'
import { decodeLabel, type FeedbackLabel } from '../../src/domain/records/feedback.js'
import { type ModelRecord, modelRecord } from '../../src/domain/records/models.js'
import { byTenant, sourceTopic } from '../../src/stream/repartition.js'
const DAY_MS = 86_400_000
/** A decision's row is kept this long after it matured, for labels that arrive later still (chargebacks). */
const ROW_RETENTION_MS = 90 * DAY_MS


/**
 * A scope's learner and the due time its due index is read from, so each read seeks past the entries already
 * handled instead of stepping over their deletions (which a scan from the start of the index would do); `added`
 * holds the entries this batch put in the index, which a scan of the store does not see until the batch commits.
 */
interface OpenLearner { scope: Scope, s: LearnerState, dueFromMs: number, added: DueEntry[], runs: GuardedRuns }

/** The learners a batch opened, by scope id: loaded from the store, written back at the end of the batch. */
type Learners = Map<string, OpenLearner>

/**
 * The `feedback` topology: online learning per tenant and mode. It reads the decisions stream (each decision's
 * recorded features) and the feedback topic (case labels: fraud and chargeback 1, safe 0). Every decision is
 * learned when it matures, `LABEL_MATURITY_DAYS` after the service recorded it (by the watermark of the
 * tenant's recorded times, never the client's event_time): with the label that came before then (held on its
 * row), or as legitimate; a chargeback after that is learned as fraud at once. Frauds and the legitimate
 * decisions of their time are so learned together: learning each label as it came would teach a new tenant's
 * model ten days of frauds before the first legitimate decision, which then flags a third of ordinary traffic
 * (docs/detection.md, "A new tenant's first two weeks"). A late decision, recorded more than
 * `LATE_EVENT_HOURS` after its event time (a backdated or backfilled event), is not learned from at all: not
 * matured, not labelled, not in the trees' index nor the rollout guard's figures.
 * Every MODEL_PUBLISH_INTERVAL_MS (a punctuation), a tenant whose model changed gets a new version on the
 * `models` topic, which every instance applies. Learners, rows and offsets commit in one batch per consumed
 * batch, so a restart neither loses nor repeats a step. The model of a tenant has one writer: decisions and
 * labels reach the trainer through the `feedback-by-tenant` repartition topic on Kafka (src/stream/repartition.ts), so
 * one instance owns all of a tenant's rows and its learner however many share the group.
 * Trees: every labelled row also enters a training index by recorded time (frauds all, legitimate rows sampled
 * and weighted back). Every `modelTrees.everyHours` of recorded time a tenant's trees are trained in a worker
 * thread on the index's rows of the `windowDays` before the maturity horizon (where every label is in); the
 * next punctuation publishes them as a challenger, scored in shadow; the first that ranks the decisions matured
 * after its horizon at least as well as the linear model's served scores did becomes the tenant's model (the
 * champion, tree-trainer.ts), the linear one kept learning; until then the linear model is published.
 * Rule rollouts with stop conditions are guarded here too (rollout-guard.ts): hits counted as decisions come,
 * precision as they mature.
 */
export const feedbackTrainer: Topology = {
  name: 'feedback',
  description: 'online model learning from case labels and matured decisions; publishes model versions',
  stores: [LEARNERS, DUE_FROM, ROWS, PENDING_LABELS, DUE_INDEX, ROLLOUT_RUNS, TRAINING_INDEX, FORESTS],
  build (ctx) {
    const { topics } = ctx
    const config: FeedbackSettings = ctx.config
    const maturityMs = config.labelMaturityDays * DAY_MS
    const lateMs = config.lateEventHours * 3_600_000
    const trees = new TreeTrainer(ctx.state, config.modelTrees, ctx.logger.child({ component: 'tree-trainer' }), n => ctx.health.inProgress('feedback.trees', n))
    const guard = new RolloutGuard({ control: ctx.control, audit: ctx.audit, clock: ctx.clock, logger: ctx.logger.child({ component: 'rollout-guard' }) })

    /** Learns a row with a label, remembers which (a later, different label corrects it), updates the trees' index. */
    const teach = (l: OpenLearner, writes: BatchWrites, trace: string, row: Row, y: 0 | 1) => {
      learn(l.s, row.x, y, row.t)
      row.learned = y
      if (row.z !== undefined) trees.index(l.scope, writes, trace, row.t, row.z, y, row.s)
    }

    const learnerOf = async (scope: Scope, { writes, local }: Batch<Learners>) => {
      let l = local.get(scopeId(scope))
      if (l === undefined) {
        const stored = await readLearner(writes, scope)
        const active = ctx.models.record(scope)
        const dueFromMs = await readDueFrom(writes, scope)
        const s = stored ?? newLearner(ctx.models.model(scope), active?.trained ?? 0)
        l = { scope, s, dueFromMs, added: [], runs: await guard.load(scope, writes) }
        local.set(scopeId(scope), l)
      }
      return l
    }

    /** A late decision: remembered until its row would have expired, so that a label about it is dropped, never learned. */
    const onLate = (l: OpenLearner, writes: BatchWrites, trace: string, recordedMs: number) => {
      deletePendingLabel(writes, l.scope, trace)
      writeRow(writes, l.scope, trace, { t: recordedMs, x: [], late: 1 })
      addDue(l, writes, recordedMs + maturityMs + ROW_RETENTION_MS, trace, 'x')
    }

    const onDecision = async (d: TransactionRecord, batch: Batch<Learners>) => {
      const { writes } = batch
      const scope = scopeOf(d)
      const l = await learnerOf(scope, batch)
      const recordedMs = recordedMsOf(d)
      l.s.watermarkMs = Math.max(l.s.watermarkMs, recordedMs)
      if (recordedMs - d.created_ms > lateMs) { onLate(l, writes, d.trace_id, recordedMs); return }
      // s: the score the service answered with (the model's; rules change only the action), what the first trees must beat
      const row: Row = { t: recordedMs, x: plainArray(inputValues(d.features)), z: plainArray(treeValues(d.features), round4), v: INPUT_SET.version, s: d.decision.score }
      const hits = await guard.observe(scope, l.runs, d)
      if (hits.length > 0) row.g = hits
      const pending = await readPendingLabel(writes, scope, d.trace_id)
      if (pending !== undefined) {
        row.h = pending.label
        deletePendingLabel(writes, scope, d.trace_id)
      }
      writeRow(writes, scope, d.trace_id, row)
      trees.observe(l.s, d.model_version, d.decision.score, recordedMs)
      addDue(l, writes, recordedMs + maturityMs, d.trace_id, 'm')
    }

    const onLabel = async (label: FeedbackLabel, batch: Batch<Learners>) => {
      const { writes } = batch
      const scope = scopeOf(label)
      const row = await readRow(writes, scope, label.trace_id)
      if (row === undefined) { writePendingLabel(writes, scope, label); return }
      if (row.learned === label.label || row.late === 1) return
      // before it matures, the label waits on the row (the latest one wins)
      if (row.learned === undefined) { row.h = label.label; writeRow(writes, scope, label.trace_id, row); return }
      const l = await learnerOf(scope, batch)
      // a label after the guard counted the row as matured corrects its figures
      if (row.g !== undefined && row.gm === 1) guard.relabelled(l.runs, row.g, label.label === 1)
      teach(l, writes, label.trace_id, row, label.label)
      writeRow(writes, scope, label.trace_id, row)
    }

    /** An entry of the due index; one due before where the index is read from moves that point back. */
    const addDue = (l: OpenLearner, writes: BatchWrites, dueMs: number, trace: string, phase: DuePhase) => {
      l.added.push(addDueEntry(writes, l.scope, dueMs, trace, phase))
      l.dueFromMs = Math.min(l.dueFromMs, dueMs)
    }

    /** A due entry reached: its row matures (learned with the label it holds, or as legitimate) or expires. */
    const settle = async (l: OpenLearner, writes: BatchWrites, { key, dueMs, trace, phase }: DueEntry) => {
      const { scope } = l
      writes.del(key)
      const row = await readRow(writes, scope, trace)
      if (row === undefined) return
      if (phase === 'x') { deleteRow(writes, scope, trace); return }
      const unlearned = row.learned === undefined // rows kept before labels were held were learned at once
      if (unlearned) {
        teach(l, writes, trace, row, row.h ?? 0)
        delete row.h
      }
      if (row.g !== undefined) {
        guard.matured(l.runs, row.g, row.learned === 1)
        row.gm = 1
      }
      if (unlearned || row.g !== undefined) writeRow(writes, scope, trace, row)
      addDue(l, writes, dueMs + ROW_RETENTION_MS, trace, 'x')
    }

    /**
     * Learns matured unlabelled decisions as legitimate and drops expired rows, up to the watermark: the entries
     * the store holds, then those this batch added (the store does not hold them yet), earliest first.
     */
    const mature = async (l: OpenLearner, writes: BatchWrites) => {
      const { scope, s } = l
      if (l.dueFromMs > s.watermarkMs) return
      for await (const entry of dueEntries(ctx.state, scope, l.dueFromMs, s.watermarkMs + 1)) await settle(l, writes, entry)
      // settling an entry adds its expiry to `added`, which may be due as well
      for (let due = dueNow(l, s.watermarkMs); due.length > 0; due = dueNow(l, s.watermarkMs)) {
        for (const entry of due) await settle(l, writes, entry)
      }
      l.dueFromMs = l.added.reduce((min, e) => Math.min(min, e.dueMs), s.watermarkMs + 1)
    }

    /** Takes this batch's added entries due by the watermark out of `added`, earliest first. */
    const dueNow = (l: OpenLearner, watermarkMs: number): DueEntry[] => {
      const due = l.added.filter(e => e.dueMs <= watermarkMs).sort((a, b) => a.dueMs - b.dueMs)
      if (due.length > 0) l.added = l.added.filter(e => e.dueMs > watermarkMs)
      return due
    }

    /**
     * Every tenant's trees trained since the last punctuation (and the training index before their window
     * dropped); then, for a tenant without a trees champion (none trained yet, or none that beat the linear
     * model's served scores: tree-trainer.ts), a new linear version when it learned something since its last.
     */
    const publish = async ({ writes, emit, afterCommit }: Batch<Learners>) => {
      afterCommit(async () => { trees.reportBusy() })
      const refused = (scope: Scope, err: unknown) => { ctx.logger.error({ err, scope }, 'feedback: learner state refused, its tenant is not published') }
      for await (const { scope, s } of scanLearners(ctx.state, refused)) {
        const { changed, records } = await trees.publish(scope, s, writes, ctx.clock())
        for (const [topic, record] of records) emit(topic === 'models' ? topics.models : topics.audit, record)
        if (changed) writeLearner(writes, scope, s)
        if (s.trained === s.publishedAt || s.champion !== undefined) continue
        const model = snapshot(s)
        s.published++
        s.publishedAt = s.trained
        writeLearner(writes, scope, s)
        const record: ModelRecord = { tenant_id: scope.tenant, mode: scope.mode, model, trained: s.trained, trained_through_ms: s.trainedThroughMs, created_ms: ctx.clock() }
        emit(topics.models, modelRecord(record))
      }
    }

    const group = `${topics.prefix}feedback-trainer`
    /** The key of a decision's row (row-store.ts: by scope and trace id). */
    const decisionRow = (d: TransactionRecord) => { const { tenant, mode } = scopeOf(d); return ROWS.key(tenant, mode, d.trace_id) }
    const decisionTopics = new Set(topics.allDecisions)
    const isDecision = (r: ConsumedRecord) => decisionTopics.has(sourceTopic(r))
    const trainer: Omit<Processor<TransactionRecord | FeedbackLabel, Learners>, 'topics'> = {
      group,
      checkpoint: ['feedback-trainer'],
      local: () => new Map(),
      decode: r => isDecision(r) ? ctx.codec.decode(sourceTopic(r), r.value, r.key) : decodeLabel(r.value),
      // A decision the trainer holds a row of (by trace id) was learned from already.
      dedupe: (value, record) => isDecision(record) ? decisionRow(value as TransactionRecord) : undefined,
      process: (value, record, batch) => isDecision(record) ? onDecision(value as TransactionRecord, batch) : onLabel(value as FeedbackLabel, batch),
      async endBatch ({ writes, local, afterCommit }) {
        for (const l of local.values()) {
          await mature(l, writes)
          if (await guard.check(l.scope, l.runs, afterCommit) || Object.keys(l.runs).length > 0) guard.save(l.scope, writes, l.runs)
          trees.maybeRefresh(l.scope, l.s, l.s.watermarkMs - maturityMs)
          writeLearner(writes, l.scope, l.s)
          writeDueFrom(writes, l.scope, l.dueFromMs)
        }
      },
      punctuation: { everyMs: config.modelPublishIntervalMs, run: publish }
    }
    return { processors: byTenant(ctx.log, `${topics.prefix}feedback-repartition`, [...topics.allDecisions, topics.feedback], topics.feedbackByTenant, trainer) }
  }
}

/** A typed array's values as a plain array, by index: Array.from would iterate it, an object a value. */
function plainArray (values: Float64Array, map: (x: number) => number = x => x): number[] {
  const out = new Array<number>(values.length)
  for (let i = 0; i < values.length; i++) out[i] = map(values[i]!)
  return out
}
