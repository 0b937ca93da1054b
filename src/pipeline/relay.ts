import type { Logger } from 'pino'
import type { EventLog } from '../eventlog/event-log.js'
import { decodeEvent } from '../records/transaction-record.js'
import type { DecisionCodec } from '../serde/decision-codec.js'
import type { Outbox } from '../state/outbox.js'
import type { StateDb } from '../state/state-db.js'
import { writeBatchSync } from '../storage/rocks.js'

export interface RelayOptions {
  topic: string
  originId: string
  /** How long to wait for more entries before publishing a batch (kafkajs has no linger of its own). */
  lingerMs: number
  maxBatch: number
}

/**
 * Publishes the outbox to the event log in sequence order, one batch at a time, and removes what the log
 * acknowledged. A crash between the acknowledgement and the removal republishes that batch: consumers
 * de-duplicate by trace_id (headers carry origin id and sequence too).
 */
export class OutboxRelay {
  private publishedThrough = 0
  private wake: (() => void) | undefined
  private signalled = true
  private stopping = false
  private loop: Promise<void> | undefined
  private backlog = 0

  constructor (
    private readonly state: StateDb,
    private readonly outbox: Outbox,
    private readonly log: EventLog,
    private readonly codec: DecisionCodec,
    private readonly options: RelayOptions,
    private readonly logger: Logger
  ) {}

  start (): void {
    this.loop ??= this.run()
  }

  /** Called after each durable write that added outbox entries. */
  notify (): void {
    this.backlog++
    this.signalled = true
    this.wake?.()
  }

  /** Entries written but not yet acknowledged by the log (approximate until the first pass completes). */
  get pending (): number {
    return this.backlog
  }

  private async run (): Promise<void> {
    let failures = 0
    while (true) {
      if (!this.signalled) {
        if (this.stopping) return
        await new Promise<void>(resolve => { this.wake = resolve })
        this.wake = undefined
        if (this.options.lingerMs > 0 && !this.stopping) await new Promise(resolve => setTimeout(resolve, this.options.lingerMs))
      }
      this.signalled = false
      try {
        const published = await this.publishBatch()
        failures = 0
        if (published > 0) this.signalled = true
        else this.backlog = 0
      } catch (err) {
        failures++
        this.logger.warn({ err, failures }, 'outbox relay: publish failed, retrying')
        this.signalled = true
        await new Promise(resolve => setTimeout(resolve, Math.min(5000, 50 * 2 ** Math.min(failures, 7))))
        if (this.stopping && failures > 20) return
      }
    }
  }

  private async publishBatch (): Promise<number> {
    const entries = await this.outbox.read(this.options.maxBatch, this.publishedThrough)
    if (entries.length === 0) return 0
    const records = await Promise.all(entries.map(async e => {
      const decoded = decodeEvent(e.value)
      return {
        key: `${decoded.tenant_id}:${decoded.trace_id}`,
        value: await this.codec.encode(this.options.topic, e.value),
        headers: { origin: this.options.originId, seq: String(e.seq), trace_id: decoded.trace_id },
        timestamp: decoded.created_ms
      }
    }))
    await this.log.append(this.options.topic, records)
    writeBatchSync(this.state.db, this.outbox.removeOps(entries), false)
    this.publishedThrough = entries[entries.length - 1]!.seq
    this.backlog = Math.max(0, this.backlog - entries.length)
    return entries.length
  }

  /** Publishes everything still in the outbox, then stops. */
  async stop (): Promise<void> {
    this.stopping = true
    this.signalled = true
    this.wake?.()
    await this.loop
  }
}
