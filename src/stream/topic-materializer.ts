import type { StoreWrites } from '../stores/writes.js'
import type { ConsumedRecord, EventLog, LogRecord, Subscription } from './eventlog/event-log.js'
import { stateKey, TAG } from '../stores/keys.js'
import type { StateDb } from '../stores/state-db.js'
import type { WriteOp } from '../stores/rocks.js'

/** The writes of one batch, readable before they are committed (later records see earlier ones). */
export class BatchWrites implements StoreWrites {
  private readonly pending = new Map<string, Buffer | null>()
  private readonly extra: Array<() => WriteOp[]> = []
  private readonly settled: Array<() => void> = []

  constructor (private readonly state: StateDb) {}

  async get (key: Buffer): Promise<Buffer | undefined> {
    const hit = this.pending.get(key.toString('latin1'))
    if (hit !== undefined) return hit ?? undefined
    return this.state.get(key)
  }

  put (key: Buffer, value: Buffer): void { this.pending.set(key.toString('latin1'), value) }
  del (key: Buffer): void { this.pending.set(key.toString('latin1'), null) }

  /**
   * Ops made elsewhere (velocity increments), written in the same batch. `ops` runs when the batch is handed to
   * the committer, with no await in between (increments reach the store in the order they hit its cache);
   * `settled` runs once the batch is committed or failed.
   */
  append (ops: () => WriteOp[], settled?: () => void): void {
    this.extra.push(ops)
    if (settled !== undefined) this.settled.push(settled)
  }

  ops (): WriteOp[] {
    const own: WriteOp[] = [...this.pending].map(([k, v]) => v === null ? { type: 'del', key: Buffer.from(k, 'latin1') } : { type: 'put', key: Buffer.from(k, 'latin1'), value: v })
    return [...own, ...this.extra.flatMap(fn => fn())]
  }

  settle (): void {
    for (const fn of this.settled.splice(0)) fn()
  }
}

/**
 * How one topic is materialized: `decode` a record's value, then `apply` it to the batch (a record that
 * cannot be decoded or applied is dead-lettered by the log, eventlog/dead-letters.ts), returning [id, result] pairs for callers waiting on `expect(id)`
 * (a command or change they appended), resolved once the record's effects are durable in this store.
 */
export interface Materialization<T, R> {
  /** Runs before each batch (e.g. wait until a view this one reads is caught up). */
  beforeBatch?(): Promise<void>
  decode(value: Buffer): T
  apply(value: T, record: ConsumedRecord, writes: BatchWrites): Promise<Array<[string, R]>>
}

/**
 * Materializes one topic into the local store, like the decisions materializer: own consumer group per
 * instance, from the beginning, partition offset checkpointed in the same batch as the state, records at or
 * below the checkpoint skipped. Adds what request handlers need: wait for a record they appended to be
 * applied here (`expect`), and wait until everything appended so far is applied (`catchUp`).
 */
export class TopicMaterializer<T, R> {
  private subscription: Subscription | undefined
  private readonly waiters = new Map<string, (result: R) => void>()
  private readonly applied = new Map<number, number>()

  constructor (
    private readonly state: StateDb,
    private readonly log: EventLog,
    readonly topic: string,
    private readonly group: string,
    private readonly how: Materialization<T, R>
  ) {}

  async start (): Promise<void> {
    this.subscription = await this.log.subscribe({
      group: this.group,
      topics: [this.topic],
      fromBeginning: true,
      onBatch: records => this.apply(records),
      onDeadLettered: async record => {
        // The group moved past a record this view could not apply: so does its checkpoint (catchUp counts on it).
        if (record.offset <= await this.appliedOffset(record.partition)) return
        await this.state.committer.commit([{ type: 'put', key: this.checkpointKey(record.partition), value: Buffer.from(String(record.offset)) }])
        this.applied.set(record.partition, Math.max(record.offset, this.applied.get(record.partition) ?? -1))
      }
    })
  }

  private checkpointKey (partition: number): Buffer {
    return stateKey(TAG.checkpoint, this.topic, String(partition))
  }

  private async appliedOffset (partition: number): Promise<number> {
    let offset = this.applied.get(partition)
    if (offset === undefined) {
      const raw = await this.state.get(this.checkpointKey(partition))
      offset = raw === undefined ? -1 : Number(raw.toString())
      if (!this.applied.has(partition)) this.applied.set(partition, offset)
    }
    return this.applied.get(partition)!
  }

  private async apply (records: ConsumedRecord[]): Promise<void> {
    const partition = records[0]!.partition
    const checkpoint = await this.appliedOffset(partition)
    await this.how.beforeBatch?.()
    const writes = new BatchWrites(this.state)
    const results: Array<[string, R]> = []
    const last = records[records.length - 1]!.offset
    try {
      for (const r of records) {
        if (r.offset <= checkpoint) continue
        // A record that cannot be decoded or applied fails the batch; the log retries it alone, then dead-letters it.
        results.push(...await this.how.apply(this.how.decode(r.value), r, writes))
      }
      await this.state.committer.commit([...writes.ops(), { type: 'put', key: this.checkpointKey(partition), value: Buffer.from(String(last)) }])
    } finally {
      writes.settle()
    }
    this.applied.set(partition, Math.max(last, this.applied.get(partition) ?? -1))
    for (const [id, result] of results) {
      this.waiters.get(id)?.(result)
      this.waiters.delete(id)
    }
  }

  /** Call BEFORE appending the record that carries `id`; resolves with its result once applied here. */
  expect (id: string, timeoutMs = CONFIRM_TIMEOUT_MS): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(id)
        reject(new NotConfirmed(`${this.topic}: ${id} was not applied within ${timeoutMs} ms`))
      }, timeoutMs)
      this.waiters.set(id, result => { clearTimeout(timer); resolve(result) })
    })
  }

  /** Resolves once every record appended to the topic before the call has been applied here. */
  async catchUp (timeoutMs = 30_000): Promise<void> {
    const ends = await this.log.endOffsets(this.topic)
    const deadline = Date.now() + timeoutMs
    for (let p = 0; p < ends.length; p++) {
      while (await this.appliedOffset(p) < ends[p]! - 1) {
        if (Date.now() > deadline) throw new NotConfirmed(`${this.topic}[${p}] not caught up within ${timeoutMs} ms`)
        await new Promise(resolve => setTimeout(resolve, 5))
      }
    }
  }

  async stop (): Promise<void> {
    await this.subscription?.close()
    for (const id of this.waiters.keys()) this.waiters.delete(id)
  }
}

/** A change was appended but this instance did not see it applied in time (it may still be applied). */
export class NotConfirmed extends Error {}

/**
 * How long a request that writes control-plane state waits for the log: the append, then seeing the change
 * applied here. Past it (a broker outage, say) the request answers 503 not_confirmed instead of hanging.
 */
export const CONFIRM_TIMEOUT_MS = 10_000

/**
 * Appends within `timeoutMs`: a log that fails or does not acknowledge in time (the change may still land
 * later) is NotConfirmed.
 */
export async function appendConfirmed (log: EventLog, topic: string, records: LogRecord[], timeoutMs = CONFIRM_TIMEOUT_MS): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new NotConfirmed(`${topic}: the log did not acknowledge within ${timeoutMs} ms`)), timeoutMs)
  })
  const appended = log.append(topic, records)
  appended.catch(() => {})
  try {
    await Promise.race([appended, timeout])
  } catch (err) {
    if (err instanceof NotConfirmed) throw err
    throw new NotConfirmed(`${topic}: the log refused the change: ${(err as Error).message}`)
  } finally {
    clearTimeout(timer)
  }
}

/** JSON record values (control-plane topics). */
export const parseJson = <T>(value: Buffer): T => JSON.parse(value.toString()) as T
