import type { Logger } from 'pino'
import { decoded, deduplicated, keyIndexed, ofLiveTenants, timed, traced, wrap, type ErasedTenants, type Handler, type Middleware, type RecordBatch } from './middleware.js'
import { stateKey, TAG } from '../stores/keys.js'
import type { StateDb } from '../stores/state-db.js'
import { BatchWrites } from './batch-writes.js'
import { NotConfirmed } from './confirmation.js'
import { appendDeadLetter, DEAD_LETTER_AFTER, isTransient } from './eventlog/dead-letters.js'
import { LogUnavailable, RecordRejected, type ConsumedRecord, type EventLog, type Subscription } from './eventlog/event-log.js'
import type { PipelineHealth } from './health.js'
import type { LogRecord } from '../domain/records/log-record.js'
import { deadLetterRecord } from '../domain/records/dead-letters.js'

/**
 * A stream processor: what it consumes, how a record is decoded and processed, and where its state is kept.
 * Every consumer of the service is one (the decisions view, the control-plane views, every topology); the
 * runner below does the rest, the same way for all of them.
 */
export interface Processor<T, L = undefined> {
  /** Consumer group: members of one group share the partitions. */
  group: string
  topics: string[]
  /**
   * Key parts of its checkpoint. A processor with one keeps state: its writes, the consumed offset of the
   * partition and the outputs not yet known appended commit in one batch, as Kafka Streams commits a store
   * with its changelog offsets; a redelivered record at or below the checkpoint is not processed again and
   * its outputs are appended again as they were. Without one it keeps no state and writes none: a
   * redelivered record is processed again and gives the same outputs.
   */
  checkpoint?: string[]
  /** Records passed over without decoding (this instance's own decisions, say). */
  skip?(record: ConsumedRecord): boolean
  /** Runs before each batch (e.g. wait until a view this one reads has caught up). */
  beforeBatch?(): Promise<void>
  /** Working state of one batch (what it touched), handed to `process` and `endBatch`. */
  local?(): L
  decode(record: ConsumedRecord): T | Promise<T>
  /**
   * De-duplication (middleware.ts, `deduplicated`): the state key applying a record writes, e.g. its decision's
   * by trace id. A record whose key already holds a value is not processed; one given no key is.
   */
  dedupe?(value: T, record: ConsumedRecord): Buffer | undefined
  /** Middleware of its own, around `process` after decoding and before de-duplication (a repartitioned input's copy filter). */
  middleware?: Middleware[]
  process(value: T, record: ConsumedRecord, batch: Batch<L>): void | Promise<void>
  /** After the batch's records, before its commit. */
  endBatch?(batch: Batch<L>): void | Promise<void>
  /** Runs every `everyMs`, never while a batch is processed; its writes and outputs commit like a batch's. */
  punctuation?: { everyMs: number, run(batch: Batch<L>): Promise<void> }
}

/** What a processor is handed for one batch of one partition (or one punctuation). */
export interface Batch<L = undefined> {
  /** State writes, readable before they are committed (later records see earlier ones). */
  readonly writes: BatchWrites
  readonly local: L
  /** An output record, appended to `topic` once the batch is committed. */
  emit(topic: string, record: LogRecord): void
  /** Runs once the batch is committed and its outputs appended. */
  afterCommit(fn: () => void | Promise<void>): void
}

/** What every runner of a process shares. */
export interface ProcessorRuntime {
  state: StateDb
  log: EventLog
  health: PipelineHealth
  logger: Logger
  deadLetterTopic: string
  /** Pause before retrying a failing record alone, times the attempt (ms). */
  retryMs?: number
  /** Deleted tenants, whose records every processor passes over (absent: none). */
  tenants?: ErasedTenants
  /** The compacted topics: their tombstones are passed over, their keys indexed by tenant for erasure. */
  compactedTopics?: ReadonlySet<string>
}

/** An output kept in a checkpoint until its append is known done, with the offset of the record that caused it. */
interface PendingOutput { offset: number, topic: string, record: LogRecord }
interface Checkpoint { offset: number, outputs: PendingOutput[] }

const NO_CHECKPOINT: Checkpoint = { offset: -1, outputs: [] }
const NONE: ReadonlySet<string> = new Set()
const compactedKey = (tenant: string, topic: string, key: string) => stateKey(TAG.compactedKey, tenant, topic, key)
const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))
/**
 * Pause before a batch that failed for a reason outside its records (the log, a view or the local store
 * unavailable) is tried again in place: 100 ms, doubling, at most this. The batch resumes within this long of
 * the cause clearing, whatever the outage lasted.
 */
export const TRANSIENT_RETRY_MAX_MS = 1000

/** A checkpoint without pending outputs is the bare offset (the format views have always written); values in base64. */
function encodeCheckpoint (c: Checkpoint): Buffer {
  if (c.outputs.length === 0) return Buffer.from(String(c.offset))
  const outputs = c.outputs.map(({ offset, topic, record: r }) => ({ offset, topic, key: r.key, partitionKey: r.partitionKey, value: Buffer.from(r.value).toString('base64'), headers: r.headers, timestamp: r.timestamp }))
  return Buffer.from(JSON.stringify({ offset: c.offset, outputs }))
}

function decodeCheckpoint (raw: Buffer | undefined): Checkpoint {
  if (raw === undefined) return NO_CHECKPOINT
  const parsed = JSON.parse(raw.toString()) as number | { offset?: number, outputs?: Array<Omit<LogRecord, 'value'> & { offset: number, topic: string, value: string }> }
  if (typeof parsed === 'number') return { offset: parsed, outputs: [] }
  const outputs = (parsed.outputs ?? []).map(({ offset, topic, value, ...r }) => ({ offset, topic, record: { ...r, value: Buffer.from(value, 'base64') } }))
  return { offset: parsed.offset ?? -1, outputs }
}

class RunningBatch<L> implements Batch<L>, RecordBatch {
  readonly writes: BatchWrites
  /** The offset of the record being processed (outputs are kept under it). */
  at = -1
  /** The W3C traceparent of the record being processed, when traced: its outputs carry it on (the trace goes on). */
  traceparent: string | undefined = undefined
  readonly outputs: PendingOutput[] = []
  readonly after: Array<() => void | Promise<void>> = []

  constructor (state: StateDb, readonly local: L) { this.writes = new BatchWrites(state) }

  // Arrow properties: a processor may destructure them from the batch.
  readonly emit = (topic: string, record: LogRecord): void => {
    const carried = this.traceparent === undefined || record.headers?.traceparent !== undefined ? record : { ...record, headers: { ...record.headers, traceparent: this.traceparent } }
    this.outputs.push({ offset: this.at, topic, record: carried })
  }
  readonly afterCommit = (fn: () => void | Promise<void>): void => { this.after.push(fn) }
}

/**
 * Runs one processor: consumes a batch of one partition, decodes each record once and processes it into one
 * write batch that also holds the checkpoint, commits, appends the outputs, then runs what waits on the
 * commit. Each record goes through the processor's middleware chain (middleware.ts), composed once here:
 * traced, decoded, the processor's own middleware, de-duplicated when it declares `dedupe`, processed.
 * Retries and dead letters are the batch loop's (consume, deliver, alone): a batch that fails for a reason of
 * its own is retried record by record; a record failing alone DEAD_LETTER_AFTER times goes to the dead-letter
 * topic with its source and reason, is counted, and the partition moves on. Failures that say nothing about
 * the record (the log or a view unavailable, the local store unable to write) are retried whole, in place,
 * with a backoff up to TRANSIENT_RETRY_MAX_MS and without end (until stopped), never dead-lettered and never
 * counted toward DEAD_LETTER_AFTER. Batches and punctuations never overlap.
 */
export class ProcessorRunner<T, L = undefined> {
  private subscription: Subscription | undefined
  private timer: NodeJS.Timeout | undefined
  private serial: Promise<unknown> = Promise.resolve()
  private readonly applied = new Map<string, number>()
  private readonly component: string
  private readonly logger: Logger
  /** One record through the processor's middleware chain. */
  private readonly handle: Handler<ConsumedRecord, RunningBatch<L>>
  /** A batch's records processed and committed with the checkpoint, timed. */
  private readonly commitBatch: (records: ConsumedRecord[], done: Checkpoint, resent: PendingOutput[]) => Promise<RunningBatch<L>>
  private stopping = false
  /** Records handed to the middleware chain since start. */
  processed = 0

  constructor (private readonly rt: ProcessorRuntime, readonly processor: Processor<T, L>) {
    const p = processor
    this.component = `consumer:${p.group}`
    this.logger = rt.logger.child({ component: 'processor', group: p.group })
    const process: Handler<T, RunningBatch<L>> = (value, record, batch) => p.process(value, record, batch)
    const dedupe = p.dedupe === undefined ? undefined : deduplicated(p.dedupe.bind(p))
    const compacted = rt.compactedTopics ?? NONE
    const stateful = p.checkpoint !== undefined
    this.handle = wrap(decoded(record => p.decode(record), wrap(process, ...p.middleware ?? [], dedupe)),
      rt.tenants === undefined ? undefined : ofLiveTenants(rt.tenants, compacted),
      stateful && compacted.size > 0 ? keyIndexed(compacted, compactedKey) : undefined,
      traced(`${p.group} process`))
    this.commitBatch = timed(p.group, (records, done, resent) => this.processAndCommit(records, done, resent))
  }

  async start (): Promise<void> {
    const p = this.processor
    this.subscription = await this.rt.log.subscribe({ group: p.group, topics: p.topics, fromBeginning: true, onBatch: (records, heartbeat) => this.exclusive(() => this.consume(records, heartbeat)) })
    if (p.punctuation !== undefined) {
      this.timer = setInterval(() => {
        this.exclusive(() => this.punctuate()).then(() => this.rt.health.recovered(`${this.component}:punctuation`), err => {
          this.rt.health.failing(`${this.component}:punctuation`, err)
          this.logger.error({ err }, 'punctuation failed')
        })
      }, p.punctuation.everyMs)
    }
  }

  async stop (): Promise<void> {
    this.stopping = true
    clearInterval(this.timer)
    await this.subscription?.close()
    await this.serial
  }

  /** Resolves once every record appended to its topics before the call has been processed here. */
  async catchUp (timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs
    for (const topic of this.processor.topics) {
      const ends = await this.rt.log.endOffsets(topic)
      for (let p = 0; p < ends.length; p++) {
        while (await this.appliedOffset(topic, p) < ends[p]! - 1) {
          if (Date.now() > deadline) throw new NotConfirmed(`${this.processor.group}: ${topic}[${p}] not caught up within ${timeoutMs} ms`)
          await sleep(5)
        }
      }
    }
  }

  private exclusive<R> (fn: () => Promise<R>): Promise<R> {
    const run = this.serial.then(fn)
    this.serial = run.catch(() => {})
    return run
  }

  private checkpointKey (topic: string, partition: number): Buffer | undefined {
    const parts = this.processor.checkpoint
    return parts === undefined ? undefined : stateKey(TAG.checkpoint, ...parts, topic, String(partition))
  }

  private async checkpointOf (topic: string, partition: number): Promise<Checkpoint> {
    const key = this.checkpointKey(topic, partition)
    return key === undefined ? NO_CHECKPOINT : decodeCheckpoint(await this.rt.state.get(key))
  }

  private async appliedOffset (topic: string, partition: number): Promise<number> {
    const id = `${topic}\u0000${partition}`
    if (!this.applied.has(id)) {
      const offset = (await this.checkpointOf(topic, partition)).offset
      if (!this.applied.has(id)) this.applied.set(id, offset)
    }
    return this.applied.get(id)!
  }

  private movedTo (topic: string, partition: number, offset: number): void {
    const id = `${topic}\u0000${partition}`
    this.applied.set(id, Math.max(offset, this.applied.get(id) ?? -1))
  }

  /**
   * Delivers a batch until it passes: a transient failure is retried in place after a pause (`heartbeat`, when
   * the log has one, keeps the consumer in its group meanwhile); only stopping ends the retries.
   */
  private async consume (records: ConsumedRecord[], heartbeat?: () => Promise<void>): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.deliver(records)
        this.rt.health.recovered(this.component)
        return
      } catch (err) {
        this.rt.health.failing(this.component, err)
        if (this.stopping || !isTransient(err)) throw err
        if (attempt === 0) this.logger.warn({ err, topic: records[0]!.topic, partition: records[0]!.partition }, 'batch failed for a reason outside its records, retrying it')
        await sleep(Math.min(TRANSIENT_RETRY_MAX_MS, 100 * 2 ** attempt))
        if (this.stopping) throw err
        await heartbeat?.()
      }
    }
  }

  /** The batch whole, or, when it fails for a reason of its own, record by record (dead-lettering); transient failures are thrown. */
  private async deliver (records: ConsumedRecord[]): Promise<void> {
    try {
      await this.run(records)
      return
    } catch (err) {
      if (isTransient(err)) throw err
      this.rt.health.failing(this.component, err)
      this.logger.warn({ err, topic: records[0]!.topic, partition: records[0]!.partition }, 'batch failed, retrying its records one by one')
    }
    for (const record of records) await this.alone(record)
  }

  private async alone (record: ConsumedRecord): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.run([record])
        return
      } catch (err) {
        this.rt.health.failing(this.component, err)
        if (isTransient(err)) throw err
        if (attempt < DEAD_LETTER_AFTER) { await sleep((this.rt.retryMs ?? 100) * attempt); continue }
        await this.deadLetter(record, err)
        return
      }
    }
  }

  private async deadLetter (record: ConsumedRecord, err: unknown): Promise<void> {
    const source = { source_topic: record.topic, source_partition: String(record.partition), source_offset: String(record.offset), consumer_group: this.processor.group }
    try {
      await appendDeadLetter(this.rt.log, this.rt.deadLetterTopic, deadLetterRecord(source, record.key, record.value, err))
    } catch (cause) {
      throw new LogUnavailable(this.rt.deadLetterTopic, cause)
    }
    this.rt.health.deadLettered(this.component)
    this.logger.error({ err, topic: record.topic, partition: record.partition, offset: record.offset }, 'record dead-lettered')
    // The group moves past the record: so does the checkpoint (catchUp counts on it).
    const key = this.checkpointKey(record.topic, record.partition)
    const done = await this.checkpointOf(record.topic, record.partition)
    if (key !== undefined && record.offset > done.offset) {
      await this.rt.state.committer.commit([{ type: 'put', key, value: encodeCheckpoint({ offset: record.offset, outputs: done.outputs.filter(o => o.offset > record.offset) }) }])
    }
    this.movedTo(record.topic, record.partition, record.offset)
  }

  /** One batch of one partition: process, commit state with the checkpoint, append the outputs, run what waits on the commit. */
  private async run (records: ConsumedRecord[]): Promise<void> {
    const { topic, partition } = records[0]!
    const first = records[0]!.offset
    const last = records[records.length - 1]!.offset
    const done = await this.checkpointOf(topic, partition)
    // Outputs of records processed before and delivered again are appended again, as they were.
    const resent = done.outputs.filter(o => o.offset >= first && o.offset <= last)
    const batch = await this.commitBatch(records, done, resent)
    this.movedTo(topic, partition, last)
    await this.append([...resent, ...batch.outputs])
    for (const fn of batch.after) await fn()
  }

  /** The records above the checkpoint through the middleware chain, then the batch's writes committed with the new checkpoint. */
  private async processAndCommit (records: ConsumedRecord[], done: Checkpoint, resent: PendingOutput[]): Promise<RunningBatch<L>> {
    const p = this.processor
    const { topic, partition } = records[0]!
    const last = records[records.length - 1]!.offset
    await p.beforeBatch?.()
    const batch = new RunningBatch(this.rt.state, p.local?.() as L)
    let written = false
    try {
      for (const r of records) {
        if (r.offset <= done.offset || p.skip?.(r) === true) continue
        batch.at = r.offset
        await this.handle(r, r, batch)
        this.processed++
      }
      await p.endBatch?.(batch)
      const key = this.checkpointKey(topic, partition)
      if (key !== undefined) {
        const outputs = [...resent, ...batch.outputs, ...done.outputs.filter(o => o.offset > last)]
        batch.writes.put(key, encodeCheckpoint({ offset: Math.max(done.offset, last), outputs }))
        await this.rt.state.committer.commit(batch.writes.ops())
      } else if (!batch.writes.empty) {
        throw new Error(`${p.group}: a processor without a checkpoint keeps no state`)
      }
      written = true
    } finally {
      batch.writes.settle(written)
    }
    return batch
  }

  /** Appends outputs in order, one append per topic (in the order topics first appear). */
  private async append (outputs: PendingOutput[]): Promise<void> {
    const byTopic = new Map<string, LogRecord[]>()
    for (const o of outputs) {
      let records = byTopic.get(o.topic)
      if (records === undefined) byTopic.set(o.topic, records = [])
      records.push(o.record)
    }
    for (const [topic, records] of byTopic) {
      try {
        await this.rt.log.append(topic, records)
      } catch (err) {
        // Refused for what they are: appending again fails again, so the input is dead-lettered. Otherwise an outage.
        if (err instanceof RecordRejected) throw err
        throw new LogUnavailable(topic, err)
      }
    }
  }

  /**
   * A punctuation commits its writes with its outputs under a key of its own, appends them, then drops the
   * key; outputs left there by a punctuation whose append failed are appended first by the next one.
   */
  private async punctuate (): Promise<void> {
    const p = this.processor
    if (p.checkpoint === undefined) throw new Error(`${p.group}: a punctuation needs a checkpoint`)
    const key = stateKey(TAG.checkpoint, ...p.checkpoint, 'punctuation')
    const left = decodeCheckpoint(await this.rt.state.get(key)).outputs
    if (left.length > 0) {
      await this.append(left)
      await this.rt.state.committer.commit([{ type: 'del', key }])
    }
    const batch = new RunningBatch(this.rt.state, p.local?.() as L)
    let written = false
    try {
      await p.punctuation!.run(batch)
      if (batch.outputs.length > 0) batch.writes.put(key, encodeCheckpoint({ offset: -1, outputs: batch.outputs }))
      const ops = batch.writes.ops()
      if (ops.length > 0) await this.rt.state.committer.commit(ops)
      written = true
    } finally {
      batch.writes.settle(written)
    }
    if (batch.outputs.length > 0) {
      await this.append(batch.outputs)
      await this.rt.state.committer.commit([{ type: 'del', key }])
    }
    for (const fn of batch.after) await fn()
  }
}
