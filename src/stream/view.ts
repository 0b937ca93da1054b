import type { BatchWrites } from './batch-writes.js'
import { CONFIRM_TIMEOUT_MS, NotConfirmed } from './confirmation.js'
import type { ConsumedRecord } from './eventlog/event-log.js'
import { ProcessorRunner, type ProcessorRuntime } from './processor.js'
import type { StorageHealth } from '../stores/storage-health.js'

/**
 * How one topic is materialized: `decode` a record's value, then `apply` it to the batch, returning
 * [id, result] pairs for writers waiting on `expect(id)` (a command or change they appended).
 */
export interface Materialization<T, R> {
  decode(value: Buffer): T
  apply(value: T, record: ConsumedRecord, writes: BatchWrites): Promise<Array<[string, R]>>
}

/**
 * A topic materialized into this instance's local store: a processor under its own consumer group per
 * instance, from the beginning, checkpointed with its state. Adds what request handlers need: wait for a
 * record they appended to be applied here (`expect`), and wait until everything appended so far is
 * applied (`catchUp`).
 */
export class View<T, R> {
  private readonly waiters = new Map<string, (result: R) => void>()
  private readonly runner: ProcessorRunner<T>
  private readonly storage: StorageHealth

  constructor (runtime: ProcessorRuntime, readonly topic: string, group: string, how: Materialization<T, R>) {
    this.storage = runtime.state.storage
    this.runner = new ProcessorRunner<T>(runtime, {
      group,
      topics: [topic],
      checkpoint: [],
      decode: record => how.decode(record.value),
      process: async (value, record, batch) => {
        const results = await how.apply(value, record, batch.writes)
        if (results.length > 0) batch.afterCommit(() => { for (const [id, result] of results) this.resolve(id, result) })
      }
    })
  }

  start (): Promise<void> { return this.runner.start() }

  private resolve (id: string, result: R): void {
    this.waiters.get(id)?.(result)
    this.waiters.delete(id)
  }

  /**
   * Call BEFORE appending the record that carries `id`; resolves with its result once applied here. Throws
   * StorageUnavailable (nothing to append) while this instance's disk is below its storage reserve: the change
   * could not be applied here, and the request that makes it answers 503 storage_unavailable.
   */
  expect (id: string, timeoutMs = CONFIRM_TIMEOUT_MS): Promise<R> {
    this.storage.assertWritable()
    return new Promise<R>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(id)
        reject(new NotConfirmed(`${this.topic}: ${id} was not applied within ${timeoutMs} ms`))
      }, timeoutMs)
      this.waiters.set(id, result => { clearTimeout(timer); resolve(result) })
    })
  }

  /** Resolves once every record appended to the topic before the call has been applied here. */
  catchUp (timeoutMs?: number): Promise<void> { return this.runner.catchUp(timeoutMs) }

  async stop (): Promise<void> {
    await this.runner.stop()
    this.waiters.clear()
  }
}

/** JSON record values (control-plane topics). */
export const parseJson = <T>(value: Buffer): T => JSON.parse(value.toString()) as T
