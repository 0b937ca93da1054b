import { publishLatency } from './metrics.js'
import type { Logger } from 'pino'
import { appendDeadLetter, DEAD_LETTER_AFTER, isTransient } from './eventlog/dead-letters.js'
import { isStorageFault } from '../stores/storage-fault.js'
import { RecordRejected, type EventLog } from './eventlog/event-log.js'
import type { DecisionCodec } from './decision-codec.js'
import type { Outbox, OutboxEntry } from '../stores/outbox.js'
import type { StateDb } from '../stores/state-db.js'
import { writeBatchSync } from '../stores/rocks.js'
import type { PipelineHealth } from './health.js'
import { decisionHeader, type TransactionRecord } from '../domain/records/decisions.js'
import type { LogRecord } from '../domain/records/log-record.js'
import { deadLetterRecord } from '../domain/records/dead-letters.js'

/** Records notified and not yet published that the relay keeps (beyond, they are decoded by their consumers). */
const RECENT_KEPT = 10_000

export interface RelayOptions {
  topic: string
  deadLetterTopic: string
  originId: string
  /** How long to wait for more entries before publishing a batch (kafkajs has no linger of its own). */
  lingerMs: number
  maxBatch: number
  /** Bytes of one append at most (keys, values, headers): below what the log accepts in one request. */
  maxBatchBytes: number
}

/** What a record costs against the byte cap: key, value, headers and Kafka's per-record overhead, rounded up. */
export function recordBytes (r: LogRecord): number {
  let bytes = 70 + Buffer.byteLength(r.key) + r.value.byteLength
  for (const [k, v] of Object.entries(r.headers ?? {})) bytes += Buffer.byteLength(k) + Buffer.byteLength(v) + 8
  return bytes
}

const COMPONENT = 'outbox-relay'
/** Most pause between tries while the log is unavailable, and while the local store cannot write (ms). */
const LOG_RETRY_MAX_MS = 5000
const STORE_RETRY_MAX_MS = 1000

/**
 * Publishes the outbox to the event log in sequence order, in batches capped by count and bytes, and removes
 * what the log acknowledged. A crash between the acknowledgement and the removal republishes that batch:
 * consumers de-duplicate by trace_id (headers carry origin id and sequence too).
 *
 * No entry blocks the stream: an entry that cannot be decoded, or that the log refuses for what it is (too
 * large), fails DEAD_LETTER_AFTER times in all (a refused batch of several counts as its head entry's first
 * failure, the tries after it are alone), then goes to the dead-letter topic with its reason, is
 * counted, and the relay moves on. An unavailable log is retried without end (nothing is lost), with a
 * backoff up to 5 s, and health says the relay is failing meanwhile. A local store that cannot write (a full
 * disk) is retried the same way with a backoff up to 1 s, never counted against an entry: entries published
 * whose removal the store refused are remembered, never published twice by this process, and removed once
 * the store writes again.
 */
export class OutboxRelay {
  private publishedThrough = 0
  /**
   * The lowest sequence notified since the last read began: entries are numbered when a decision is prepared
   * and written when its request (a batch: all its events) commits, so a batch's entries can be written after
   * later-numbered ones were read (by a read under way, too) and published. The next read starts below them.
   */
  private lateFrom = Infinity
  private wake: (() => void) | undefined
  private signalled = true
  private stopping = false
  private loop: Promise<void> | undefined
  private backlog = 0
  /** Records of entries still in the outbox, by outbox sequence (notify; dropped with their entries). */
  private readonly recent = new Map<number, TransactionRecord>()
  /** The traceparent of the request that made each of those, when it was traced. */
  private readonly traceparents = new Map<number, string>()
  /** Consecutive failures of the entry at the head of the outbox, alone. */
  private head = { seq: 0, failures: 0 }
  /** Entries published (or dead-lettered) whose removal from the outbox the store has not written yet. */
  private unremoved: OutboxEntry[] = []
  /** Its log lines, bound to `component: 'outbox-relay'`. */
  private readonly logger: Logger

  constructor (
    private readonly state: StateDb,
    private readonly outbox: Outbox,
    private readonly log: EventLog,
    private readonly codec: DecisionCodec,
    private readonly options: RelayOptions,
    private readonly health: PipelineHealth,
    logger: Logger
  ) {
    this.logger = logger.child({ component: 'outbox-relay' })
  }

  start (): void {
    this.loop ??= this.run()
  }

  /**
   * Called after each durable write that added outbox entries: their count, or the records they encode (by
   * origin_seq, their outbox sequence), which the relay hands to this process's consumers with their bytes
   * (DecisionCodec.remember) so that none decodes them again.
   */
  notify (recorded: number | readonly TransactionRecord[] = 1, traceparents: ReadonlyArray<string | undefined> = []): void {
    if (typeof recorded !== 'number' && this.recent.size + recorded.length <= RECENT_KEPT) {
      recorded.forEach((r, i) => {
        this.recent.set(r.origin_seq, r)
        const parent = traceparents[i]
        if (parent !== undefined) this.traceparents.set(r.origin_seq, parent)
      })
    }
    if (typeof recorded === 'number') this.lateFrom = 1
    else for (const r of recorded) this.lateFrom = Math.min(this.lateFrom, r.origin_seq)
    this.backlog += typeof recorded === 'number' ? recorded : recorded.length
    this.signalled = true
    this.wake?.()
  }

  /** Entries written but not yet acknowledged by the log (approximate until the first pass completes). */
  get pending (): number {
    return this.backlog
  }

  /**
   * Waits for a notification, lingers (so that the requests just answered are written out and more decisions
   * join the batch), publishes, and goes on without lingering while a batch left entries behind. An append
   * costs about the same for 1 record as for 100 (a synced write, a wake-up of every consumer group), so at
   * moderate load the linger is what keeps the stream's cost per decision down.
   */
  private async run (): Promise<void> {
    let failures = 0
    let more = true
    while (true) {
      if (!this.signalled) {
        if (this.stopping) return
        await new Promise<void>(resolve => { this.wake = resolve })
        this.wake = undefined
      }
      // Never in the notifier's turn: the responses of the requests just recorded are written out first.
      const linger = more || this.stopping ? 0 : this.options.lingerMs
      await new Promise(resolve => linger > 0 ? setTimeout(resolve, linger) : setImmediate(resolve))
      this.signalled = false
      try {
        const published = await this.publishBatch()
        failures = 0
        this.health.recovered(COMPONENT)
        more = published.more
        if (published.removed > 0) this.signalled = true
        else this.backlog = 0
      } catch (err) {
        if (this.stopping) return
        failures++
        this.health.failing(COMPONENT, err)
        this.logger.warn({ err, failures }, 'publish failed, retrying')
        this.signalled = true
        more = true
        // A store that cannot write recovers by itself within seconds (stores/storage-health.ts): retried sooner.
        const cap = isStorageFault(err) ? STORE_RETRY_MAX_MS : LOG_RETRY_MAX_MS
        await new Promise(resolve => setTimeout(resolve, Math.min(cap, 50 * 2 ** Math.min(failures, 7))))
      }
    }
  }

  /**
   * Publishes the next batch: how many entries left the outbox (published or dead-lettered), and whether it
   * left behind entries it had found (a batch capped by count or bytes, an entry sent or dead-lettered alone).
   */
  private async publishBatch (): Promise<{ removed: number, more: boolean }> {
    this.removePublished()
    const late = this.lateFrom
    this.lateFrom = Infinity
    try {
      // Published entries are removed above, so reading again below publishedThrough publishes nothing twice.
      return await this.publishFrom(Math.min(this.publishedThrough, late - 1))
    } catch (err) {
      this.lateFrom = Math.min(this.lateFrom, late) // the next try reads from there again
      throw err
    }
  }

  private async publishFrom (from: number): Promise<{ removed: number, more: boolean }> {
    const entries = await this.outbox.read(this.options.maxBatch, from)
    if (entries.length === 0) return { removed: 0, more: false }
    // After a failure the head entry goes alone, until it passes or is dead-lettered.
    const alone = this.head.seq === entries[0]!.seq && this.head.failures > 0
    const batch: OutboxEntry[] = []
    const records: LogRecord[] = []
    let bytes = 0
    for (const e of alone ? entries.slice(0, 1) : entries) {
      let record: LogRecord
      try {
        record = await this.toRecord(e)
      } catch (err) {
        if (batch.length > 0) break
        return { removed: await this.failed(e, err), more: true }
      }
      const size = recordBytes(record)
      if (batch.length > 0 && bytes + size > this.options.maxBatchBytes) break
      batch.push(e)
      records.push(record)
      bytes += size
    }
    try {
      await this.log.append(this.options.topic, records)
    } catch (err) {
      if (!(err instanceof RecordRejected)) throw err
      if (batch.length > 1) { this.head = { seq: batch[0]!.seq, failures: 1 }; throw err }
      return { removed: await this.failed(batch[0]!, err), more: true }
    }
    this.head = { seq: 0, failures: 0 }
    const now = Date.now()
    for (const r of records) publishLatency.observe(Math.max(0, now - (r.timestamp ?? now)) / 1000)
    this.remove(batch)
    return { removed: batch.length, more: batch.length < entries.length || entries.length === this.options.maxBatch }
  }

  private traceparentHeader (seq: number): { traceparent?: string } {
    const parent = this.traceparents.get(seq)
    return parent === undefined ? {} : { traceparent: parent }
  }

  private async toRecord (e: OutboxEntry): Promise<LogRecord> {
    const known = this.recent.get(e.seq)
    const decoded = known ?? decisionHeader(e.value)
    const value = await this.codec.encode(this.options.topic, e.value)
    const key = `${decoded.tenant_id}:${decoded.trace_id}`
    if (known !== undefined) this.codec.remember?.(value, known, key)
    return {
      key,
      value,
      headers: { origin: this.options.originId, seq: String(e.seq), tenant_id: decoded.tenant_id, trace_id: decoded.trace_id, ...this.traceparentHeader(e.seq) },
      timestamp: decoded.created_ms
    }
  }

  /**
   * The head entry failed alone for what it is: rethrown (retried alone after a pause) until it has failed
   * DEAD_LETTER_AFTER times, then dead-lettered.
   */
  private async failed (e: OutboxEntry, err: unknown): Promise<number> {
    // Not the entry's fault (the log or the store unavailable): retried, never counted toward its dead letter.
    if (isTransient(err)) throw err
    const failures = this.head.seq === e.seq ? this.head.failures + 1 : 1
    this.head = { seq: e.seq, failures }
    if (failures < DEAD_LETTER_AFTER) throw err
    const source = { source: 'outbox', origin: this.options.originId, seq: String(e.seq), target_topic: this.options.topic }
    await appendDeadLetter(this.log, this.options.deadLetterTopic, deadLetterRecord(source, `${this.options.originId}:${e.seq}`, e.value, err))
    this.health.deadLettered(COMPONENT)
    this.logger.error({ err, seq: e.seq }, 'entry dead-lettered')
    this.head = { seq: 0, failures: 0 }
    this.remove([e])
    return 1
  }

  /** Entries that left through the log: never read again by this process, removed from the outbox now or, when the store refuses, once it writes again. */
  private remove (entries: OutboxEntry[]): void {
    for (const e of entries) { this.recent.delete(e.seq); this.traceparents.delete(e.seq) }
    const last = entries[entries.length - 1]!.seq
    // Late entries published in part (a batch capped by count or bytes): the next read goes on after them.
    if (last < this.publishedThrough) this.lateFrom = Math.min(this.lateFrom, last + 1)
    this.publishedThrough = Math.max(this.publishedThrough, last)
    this.backlog = Math.max(0, this.backlog - entries.length)
    this.unremoved.push(...entries)
    this.removePublished()
  }

  /** Removes the entries published from the outbox; throws (they stay noted) while the store cannot write. */
  private removePublished (): void {
    if (this.unremoved.length === 0) return
    writeBatchSync(this.state.db, this.outbox.removeOps(this.unremoved), false)
    this.unremoved = []
  }

  /**
   * Publishes what it can of the outbox within `timeoutMs`, then stops; entries still unpublished stay in the
   * outbox for the next start (nothing is lost). An append still under way is abandoned, not awaited.
   */
  async stop (timeoutMs = 5000): Promise<void> {
    this.stopping = true
    this.signalled = true
    this.wake?.()
    let timer: NodeJS.Timeout | undefined
    const done = await Promise.race([
      this.loop?.then(() => true) ?? Promise.resolve(true),
      new Promise<false>(resolve => { timer = setTimeout(() => resolve(false), timeoutMs) })
    ])
    clearTimeout(timer)
    if (!done) this.logger.warn({ pending: this.backlog }, 'stopped before the outbox was published; the entries stay in it')
  }
}
