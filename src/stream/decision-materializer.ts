import type { ConsumedRecord, EventLog, Subscription } from './eventlog/event-log.js'
import type { TransactionRecord } from '../domain/transaction.js'
import type { DecisionCodec } from './decision-codec.js'
import { decisionRecordOps } from '../stores/decision-ops.js'
import { scopeOf } from '../domain/scope.js'
import { stateKey, TAG } from '../stores/keys.js'
import type { StateDb } from '../stores/state-db.js'
import { transactionKey } from '../stores/transactions.js'
import { labelKey } from '../stores/labels.js'
import { countFraud, shouldCount, type FraudCount, type StoredLabel } from '../stores/label-counters.js'
import type { WriteOp } from '../stores/rocks.js'
import type { VelocityStore, VelocityView } from '../stores/velocity.js'
import type { RulesetSource } from './control-plane.js'

/**
 * Materializes the whole `decisions` stream into this instance's local stores (the GlobalKTable pattern):
 * every instance consumes under its own group, skips its own decisions (already applied on the request
 * path), checkpoints the partition offset in the same write batch as the state, and ignores records at or
 * below the checkpoint or whose trace_id it already holds, so replays and duplicates change nothing.
 */
export class DecisionMaterializer {
  private subscription: Subscription | undefined
  applied = 0

  constructor (
    private readonly state: StateDb,
    private readonly velocity: VelocityStore,
    private readonly log: EventLog,
    private readonly codec: DecisionCodec,
    private readonly topic: string,
    private readonly originId: string,
    private readonly rulesets: RulesetSource
  ) {}

  async start (): Promise<void> {
    this.subscription = await this.log.subscribe({
      group: `materializer-${this.originId}`,
      topics: [this.topic],
      fromBeginning: true,
      onBatch: records => this.apply(records)
    })
  }

  private checkpointKey (partition: number): Buffer {
    return stateKey(TAG.checkpoint, this.topic, String(partition))
  }

  private async apply (records: ConsumedRecord[]): Promise<void> {
    const partition = records[0]!.partition
    const key = this.checkpointKey(partition)
    const raw = await this.state.get(key)
    const checkpoint = raw === undefined ? -1 : Number(raw.toString())
    const fresh: Array<{ record: TransactionRecord, view: VelocityView, labelled?: { count: FraudCount, label: StoredLabel } }> = []
    const seen = new Set<string>()
    try {
      for (const r of records) {
        if (r.offset <= checkpoint || r.headers.origin === this.originId) continue
        // A record that cannot be decoded fails the batch; the log retries it alone, then dead-letters it.
        const record: TransactionRecord = await this.codec.decode(r.topic, r.value)
        const txKey = transactionKey(scopeOf(record), record.trace_id)
        if (seen.has(record.trace_id) || (await this.state.get(txKey)) !== undefined) continue
        seen.add(record.trace_id)
        const { compiled } = await this.rulesets.activeRuleset(scopeOf(record))
        const view = await this.velocity.view(scopeOf(record), record.request, record.created_ms, compiled.velocityNeeds)
        fresh.push({ record, view, labelled: await this.earlyLabel(record) })
      }
      // From here to commit() nothing awaits: the increments enter the batch in the order they hit the cache.
      const ops: WriteOp[] = []
      for (const { record, view, labelled } of fresh) {
        ops.push(...decisionRecordOps(record, false), ...view.incrementOps())
        if (labelled !== undefined) {
          ops.push(...labelled.count.ops(), { type: 'put', key: labelKey(scopeOf(record), record.trace_id), value: Buffer.from(JSON.stringify({ ...labelled.label, counted: true })) })
        }
      }
      ops.push({ type: 'put', key, value: Buffer.from(String(records[records.length - 1]!.offset)) })
      const durable = this.state.committer.commit(ops)
      this.applied += fresh.length
      await durable
    } finally {
      for (const { view, labelled } of fresh) { view.release(); labelled?.count.release() }
    }
  }

  /** A fraud label that reached this instance before its transaction: counted now (label-counters.ts). */
  private async earlyLabel (record: TransactionRecord): Promise<{ count: FraudCount, label: StoredLabel } | undefined> {
    const raw = await this.state.get(labelKey(scopeOf(record), record.trace_id))
    if (raw === undefined) return undefined
    const label = JSON.parse(raw.toString()) as StoredLabel
    if (!shouldCount(label, label.counted)) return undefined
    return { count: await countFraud(this.velocity, record), label }
  }

  async stop (): Promise<void> {
    await this.subscription?.close()
  }
}
