/**
 * The materialization floor: the least any materializer of the design's kind (request-path state in local
 * RocksDB on every instance of a cell, docs/architecture.md#cells) does for another instance's decision, and
 * nothing more. It consumes the decisions topic with the service's Kafka adapter, reads each decision's
 * subject, and writes a consumer batch in one atomic write, not fsynced: each decision's bytes, its device's
 * first sight and its user's position (decision-ops.ts), one merge of a 20-byte event into the velocity record
 * of each dimension value the default ruleset counts (what the service's materializer merges, read-plan.ts),
 * and the batch's offset. No plan per decision, no cache, no de-duplication, no dead letters.
 * Run by bench/scale-out.ts after instance B's catch-up; prints one JSON line: the CPU of this process (every
 * thread) a decision, from the first batch to the last, and the merges a decision.
 *   FLOOR_BROKERS FLOOR_TOPIC FLOOR_RECORDS FLOOR_DIR
 *   FLOOR_UNTIL (optional): stop each decision after one step, to see what each costs (docs/benchmarks.md):
 *     `consume` (the records only), `subject` (read), `decision` (its own keys written), `keys` (the velocity
 *     records' keys made, not merged); unset, every step.
 */
import pino from 'pino'
import { KafkaEventLog } from '../src/stream/eventlog/kafka.js'
import { openStateDb } from '../src/stores/state-db.js'
import { writeBatchSync, type WriteOp } from '../src/stores/rocks.js'
import { stateKey, TAG } from '../src/stores/keys.js'
import { decisionRecordOps } from '../src/stores/decision-ops.js'
import { scopeOf } from '../src/domain/scope.js'
import { decisionSubject } from '../src/domain/records/decisions.js'
import { dimensionValue, recordDimension } from '../src/domain/features/velocity-spec.js'
import { recordId, recordKey, requestPlan } from '../src/stores/velocity/read-plan.js'
import { initialRuleset } from '../src/domain/rules/ruleset-versions.js'
import { compileRuleset } from '../src/domain/rules/ruleset.js'

const records = Number(process.env.FLOOR_RECORDS)
const STEPS = ['consume', 'subject', 'decision', 'keys', 'merges'] as const
const until = STEPS.indexOf((process.env.FLOOR_UNTIL ?? 'merges') as typeof STEPS[number])
if (until < 0) throw new Error(`FLOOR_UNTIL is one of ${STEPS.join(', ')}`)
const upTo = (step: typeof STEPS[number]) => until >= STEPS.indexOf(step)
const state = await openStateDb(process.env.FLOOR_DIR!)
const log = new KafkaEventLog({ brokers: process.env.FLOOR_BROKERS!.split(','), clientId: 'materialize-floor', logger: pino({ level: 'warn' }) })
const needs = compileRuleset(initialRuleset()).velocityNeeds
const event = Buffer.alloc(20, 1)
/** The dimensions whose records a decision's merges touch, found once from the first decision's plan. */
let dimensions: string[] | undefined
let seen = 0
let started: NodeJS.CpuUsage | undefined
let merges = 0

await new Promise<void>(resolve => {
  void log.subscribe({
    group: `materialize-floor-${Date.now()}`,
    topics: [process.env.FLOOR_TOPIC!],
    fromBeginning: true,
    async onBatch (batch) {
      started ??= process.cpuUsage()
      const ops: WriteOp[] = []
      for (const r of batch) {
        if (!upTo('subject')) continue
        const subject = decisionSubject(r.value)
        if (!upTo('decision')) continue
        const scope = scopeOf(subject)
        dimensions ??= [...requestPlan(scope, subject.request, needs, false).records.keys()]
        for (const op of decisionRecordOps(subject, r.value)) ops.push(op)
        if (!upTo('keys')) continue
        for (const dim of dimensions) {
          const value = dimensionValue(subject.request, dim)
          if (value === undefined) continue
          const key = recordKey(recordId(scope, recordDimension(dim), value))
          if (upTo('merges')) ops.push({ type: 'merge', key, value: event, column: state.velocity })
          merges++
        }
      }
      const last = batch[batch.length - 1]!
      ops.push({ type: 'put', key: stateKey(TAG.meta, 'floor', String(last.partition)), value: Buffer.from(String(last.offset)) })
      // Not fsynced: the state and its offsets are written together, so a crash loses both and the topic is read again.
      if (upTo('decision')) writeBatchSync(state.db, ops, false)
      seen += batch.length
      if (seen >= records) resolve()
    }
  })
})
const used = process.cpuUsage(started)
console.log(JSON.stringify({ until: STEPS[until], cpuUs: (used.user + used.system) / seen, decisions: seen, mergesPerDecision: merges / seen }))
process.exit(0)
