import type { DecisionCodec } from './decision-codec.js'
import { decisionRecordOps } from '../stores/decision-ops.js'
import { scopeOf } from '../domain/scope.js'
import { transactionKey } from '../stores/transactions.js'
import { labelKey } from '../stores/labels.js'
import { countFraud, shouldCount, type FraudCount, type StoredLabel } from '../stores/label-counters.js'
import type { VelocityStore } from '../stores/velocity/index.js'
import type { BatchWrites } from './batch-writes.js'
import type { RulesetSource } from './control-plane.js'
import type { Processor } from './processor.js'
import type { ConsumedRecord } from './eventlog/event-log.js'
import { decisionSubject, encodeEvent, type DecisionSubject } from '../domain/records/decisions.js'

export interface DecisionsViewDeps {
  velocity: VelocityStore
  codec: DecisionCodec
  topic: string
  originId: string
  rulesets: RulesetSource
}

/** A decision of another instance as the view applies it: what it is about, and its bytes to store. */
interface Recorded { subject: DecisionSubject, encoded: Uint8Array }

/**
 * With plain Protobuf bytes on the topic only the subject is read (the decision, features and rules are stored
 * as bytes, never needed here); other wire formats are decoded whole and encoded again for the store.
 */
async function recorded (codec: DecisionCodec, record: ConsumedRecord): Promise<Recorded> {
  const encoded = codec.protobuf?.(record.value)
  if (encoded !== undefined) return { subject: decisionSubject(encoded), encoded }
  const full = await codec.decode(record.topic, record.value, record.key)
  return { subject: full, encoded: encodeEvent(full) }
}

/**
 * The whole `decisions` stream materialized into this instance's local stores (the GlobalKTable pattern):
 * every instance consumes under its own group, skips its own decisions (already applied on the request
 * path), checkpoints with its state, and passes over a decision whose trace_id it already holds, so replays
 * and duplicates change nothing.
 */
export function decisionsView (deps: DecisionsViewDeps): Processor<Recorded> {
  return {
    group: `materializer-${deps.originId}`,
    topics: [deps.topic],
    checkpoint: [],
    skip: record => record.headers.origin === deps.originId,
    decode: record => recorded(deps.codec, record),
    // A decision whose transaction is stored (by trace id) is applied already: a replay or a duplicate.
    dedupe: ({ subject }) => transactionKey(scopeOf(subject), subject.trace_id),
    async process ({ subject: record, encoded }, _consumed, { writes }) {
      const scope = scopeOf(record)
      // The first sight and the position are merges (decision-ops.ts): written with the batch, not read in it.
      const ops = decisionRecordOps(record, encoded)
      writes.apply(ops.filter(op => op.type !== 'merge'))
      const merges = ops.filter(op => op.type === 'merge')
      if (merges.length > 0) writes.append(() => merges)
      const { compiled } = await deps.rulesets.activeRuleset(scope)
      // Increments join the batch when it is handed to the committer, in the order they hit the cache; the
      // records are released once it is settled, whatever happens after they were pinned.
      const view = deps.velocity.countView(scope, record.request, record.created_ms, compiled.velocityNeeds)
      writes.append(() => view.incrementOps(), () => view.release())
      const labelled = await earlyLabel(deps.velocity, record, writes)
      if (labelled === undefined) return
      writes.append(() => labelled.count.ops(), () => labelled.count.release())
      writes.put(labelKey(scope, record.trace_id), Buffer.from(JSON.stringify({ ...labelled.label, counted: true })))
    }
  }
}

/** A fraud label that reached this instance before its transaction: counted now (label-counters.ts). */
async function earlyLabel (velocity: VelocityStore, record: DecisionSubject, writes: BatchWrites): Promise<{ count: FraudCount, label: StoredLabel } | undefined> {
  const raw = await writes.get(labelKey(scopeOf(record), record.trace_id))
  if (raw === undefined) return undefined
  const label = JSON.parse(raw.toString()) as StoredLabel
  if (!shouldCount(label, label.counted)) return undefined
  return { count: await countFraud(velocity, record), label }
}
