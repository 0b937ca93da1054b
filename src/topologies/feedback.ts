import type { ConsumedRecord } from '../stream/eventlog/event-log.js'
import type { FeedbackLabel } from '../domain/cases/effects.js'
import { inputValues } from '../domain/model/inputs.js'
import { learn, newLearner, snapshot, type LearnerState } from '../domain/model/learner.js'
import type { ModelRecord } from '../stream/views/model-registry.js'
import { decodeLabel } from '../stream/records/feedback-label.js'
import type { TransactionRecord } from '../domain/transaction.js'
import { scopeId, scopeOf, type Scope } from '../domain/scope.js'
import { stateKey, TAG } from '../stores/keys.js'
import { BatchWrites } from '../stream/topic-materializer.js'
import { scan } from '../stores/rocks.js'
import type { RunningTopology, Topology, TopologyContext } from './index.js'

const DAY_MS = 86_400_000
/** A decision's row is kept this long after it matured, for labels that arrive later still (chargebacks). */
const ROW_RETENTION_MS = 90 * DAY_MS

/** What the trainer keeps per decision: its input values, event time, and the label it was learned with. */
interface Row { t: number, x: number[], learned?: 0 | 1 }

/** Learns a row with a label and remembers which (a later, different label corrects it). */
function teach (s: LearnerState, row: Row, y: 0 | 1): void {
  learn(s, row.x, y, row.t)
  row.learned = y
}

const scopeParts = (s: Scope) => [s.tenant, s.mode] as const
const learnerKey = (s: Scope) => stateKey(TAG.learner, 's', ...scopeParts(s))
const rowKey = (s: Scope, trace: string) => stateKey(TAG.learner, 'r', ...scopeParts(s), trace)
const pendingKey = (s: Scope, trace: string) => stateKey(TAG.learner, 'p', ...scopeParts(s), trace)
/** Due index: (scope, due time, trace, phase): phase m = matures (learn as legitimate unless labelled), x = row expires. */
const dueKey = (s: Scope, dueMs: number, trace: string, phase: 'm' | 'x') => stateKey(TAG.learner, 'd', ...scopeParts(s), String(dueMs).padStart(15, '0'), trace, phase)
const checkpointKey = (topic: string, partition: number) => stateKey(TAG.checkpoint, 'feedback-trainer', topic, String(partition))
const json = (v: unknown) => Buffer.from(JSON.stringify(v))

/**
 * The `feedback` topology: online learning per tenant and mode. It reads the decisions stream (each decision's
 * recorded features) and the feedback topic (case labels: fraud and chargeback 1, safe 0). A labelled decision
 * is learned at once; a decision still without a fraud label `LABEL_MATURITY_DAYS` after its event time (by
 * the decisions' event-time watermark) is learned as legitimate; a chargeback after that is learned as fraud.
 * Every MODEL_PUBLISH_INTERVAL_MS, a tenant whose model changed gets a new version on the `models` topic,
 * which every instance applies. State (learner, rows, offsets) commits in one batch per consumed batch, so a
 * restart neither loses nor repeats a step. One instance per deployment: the model of a tenant has one writer.
 */
export const feedbackTrainer: Topology = {
  name: 'feedback',
  description: 'online model learning from case labels and matured decisions; publishes model versions',
  async start (ctx: TopologyContext): Promise<RunningTopology> {
    const { state, topics, log, config } = ctx
    const maturityMs = config.labelMaturityDays * DAY_MS
    const learners = new Map<string, { scope: Scope, s: LearnerState }>()
    let serial: Promise<unknown> = Promise.resolve()
    const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
      const run = serial.then(fn)
      serial = run.catch(() => {})
      return run
    }

    const learnerOf = async (scope: Scope) => {
      let l = learners.get(scopeId(scope))
      if (l === undefined) {
        const raw = await state.get(learnerKey(scope))
        const active = ctx.models.record(scope)
        l = { scope, s: raw !== undefined ? JSON.parse(raw.toString()) as LearnerState : newLearner(ctx.models.model(scope), active?.trained ?? 0) }
        learners.set(scopeId(scope), l)
      }
      return l
    }

    const onDecision = async (d: TransactionRecord, writes: BatchWrites, touched: Set<string>) => {
      const scope = scopeOf(d)
      if (await writes.get(rowKey(scope, d.trace_id)) !== undefined) return
      const l = await learnerOf(scope)
      const row: Row = { t: d.created_ms, x: Array.from(inputValues(d.features)) }
      const pending = await writes.get(pendingKey(scope, d.trace_id))
      if (pending !== undefined) {
        teach(l.s, row, (JSON.parse(pending.toString()) as FeedbackLabel).label)
        writes.del(pendingKey(scope, d.trace_id))
      }
      writes.put(rowKey(scope, d.trace_id), json(row))
      writes.put(dueKey(scope, d.created_ms + maturityMs, d.trace_id, 'm'), Buffer.alloc(0))
      l.s.watermarkMs = Math.max(l.s.watermarkMs, d.created_ms)
      touched.add(scopeId(scope))
    }

    const onLabel = async (label: FeedbackLabel, writes: BatchWrites, touched: Set<string>) => {
      const scope = scopeOf(label)
      const raw = await writes.get(rowKey(scope, label.trace_id))
      if (raw === undefined) { writes.put(pendingKey(scope, label.trace_id), json(label)); return }
      const row = JSON.parse(raw.toString()) as Row
      if (row.learned === label.label) return
      const l = await learnerOf(scope)
      teach(l.s, row, label.label)
      writes.put(rowKey(scope, label.trace_id), json(row))
      touched.add(scopeId(scope))
    }

    /** Learns matured unlabelled decisions as legitimate and drops expired rows, up to the watermark. */
    const mature = async (scope: Scope, writes: BatchWrites) => {
      const l = await learnerOf(scope)
      const gte = stateKey(TAG.learner, 'd', ...scopeParts(scope), '')
      const lt = dueKey(scope, l.s.watermarkMs + 1, '', 'm')
      for await (const [key] of scan(state.db, gte, lt)) {
        const [, , , , due, trace, phase] = key.toString().split('\u0000')
        writes.del(key)
        const rk = rowKey(scope, trace!)
        const raw = await writes.get(rk)
        if (raw === undefined) continue
        if (phase === 'x') { writes.del(rk); continue }
        const row = JSON.parse(raw.toString()) as Row
        if (row.learned === undefined) {
          teach(l.s, row, 0)
          writes.put(rk, json(row))
        }
        writes.put(dueKey(scope, Number(due) + ROW_RETENTION_MS, trace!, 'x'), Buffer.alloc(0))
      }
    }

    const onBatch = (records: ConsumedRecord[]) => exclusive(async () => {
      const { topic, partition } = records[0]!
      const ck = checkpointKey(topic, partition)
      const raw = await state.get(ck)
      const checkpoint = raw === undefined ? -1 : Number(raw.toString())
      const writes = new BatchWrites(state)
      const touched = new Set<string>()
      for (const r of records) {
        if (r.offset <= checkpoint) continue
        try {
          if (topic === topics.decisions) await onDecision(await ctx.codec.decode(r.topic, r.value), writes, touched)
          else await onLabel(decodeLabel(r.value), writes, touched)
        } catch (err) {
          ctx.logger.error({ err, topic, partition, offset: r.offset }, 'feedback trainer: record skipped')
        }
      }
      for (const id of touched) await mature(learners.get(id)!.scope, writes)
      for (const id of touched) writes.put(learnerKey(learners.get(id)!.scope), json(learners.get(id)!.s))
      writes.put(ck, Buffer.from(String(records[records.length - 1]!.offset)))
      await state.committer.commit(writes.ops())
    })

    /** A new version for every tenant that learned something since its last one. */
    const publish = () => exclusive(async () => {
      const out = []
      const writes = new BatchWrites(state)
      for (const { scope, s } of learners.values()) {
        if (s.trained === s.publishedAt) continue
        const model = snapshot(s)
        s.published++
        s.publishedAt = s.trained
        writes.put(learnerKey(scope), json(s))
        const record: ModelRecord = { tenant_id: scope.tenant, mode: scope.mode, model, trained: s.trained, trained_through_ms: s.trainedThroughMs, created_ms: ctx.clock() }
        out.push({ key: `${scope.tenant}:${scope.mode}`, value: json(record), headers: { tenant_id: scope.tenant } })
      }
      if (out.length === 0) return
      await state.committer.commit(writes.ops())
      await log.append(topics.models, out)
    })

    const subscription = await log.subscribe({ group: `${topics.prefix}feedback-trainer`, topics: [topics.decisions, topics.feedback], fromBeginning: true, onBatch })
    const timer = setInterval(() => { publish().catch(err => ctx.logger.error({ err }, 'feedback trainer: publish failed')) }, config.modelPublishIntervalMs)
    return {
      async stop () {
        clearInterval(timer)
        await subscription.close()
        await serial
      }
    }
  }
}
