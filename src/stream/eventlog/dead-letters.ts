import type { Logger } from 'pino'
import type { PipelineHealth } from '../health.js'
import { NotConfirmed } from '../topic-materializer.js'
import { LogUnavailable, RecordRejected, type ConsumedRecord, type EventLog, type LogRecord, type SubscribeOptions, type Subscription, type TopicSpec } from './event-log.js'

/** Tries of one record alone before it is dead-lettered (the failure is its own, not the log's). */
export const DEAD_LETTER_AFTER = 3
/** A dead-letter record carries the original value up to this size; a larger one is described, not copied. */
const MAX_COPIED_BYTES = 256 * 1024

/** Failures that say nothing about the record: the log or a view is unavailable. They are retried, never dead-lettered. */
export const isTransient = (err: unknown): boolean => err instanceof LogUnavailable || err instanceof NotConfirmed

/** A dead-letter record: the original key and value (when small enough) with where it came from and why. */
export function deadLetterRecord (source: Record<string, string>, key: string, value: Uint8Array, err: unknown): LogRecord {
  const reason = (err instanceof Error ? err.message : String(err)).slice(0, 1000)
  const copied = value.byteLength <= MAX_COPIED_BYTES
  return {
    key,
    value: copied ? value : new Uint8Array(0),
    headers: { ...source, reason, ...(copied ? {} : { value_omitted_bytes: String(value.byteLength) }) }
  }
}

/**
 * Appends a dead-letter record; when the dead-letter topic refuses even that (its own size limit), appends it
 * again without the value, so the reason and the source are kept whatever the record's size.
 */
export async function appendDeadLetter (log: EventLog, topic: string, record: LogRecord): Promise<void> {
  try {
    await log.append(topic, [record])
  } catch (err) {
    if (!(err instanceof RecordRejected) || record.value.byteLength === 0) throw err
    await log.append(topic, [{ ...record, value: new Uint8Array(0), headers: { ...record.headers, value_omitted_bytes: String(record.value.byteLength) } }])
  }
}

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))

/**
 * The event log as every consumer of this process sees it: appends that fail for lack of a log are
 * LogUnavailable; a batch whose handler fails for any other reason is retried record by record, and a
 * record that still fails DEAD_LETTER_AFTER times alone goes to the dead-letter topic with its reason and
 * is counted, so no record blocks a partition. Health records which consumer is failing meanwhile.
 */
export class DeadLetteringLog implements EventLog {
  constructor (
    private readonly inner: EventLog,
    private readonly deadLetterTopic: string,
    private readonly health: PipelineHealth,
    private readonly logger: Logger,
    private readonly retryMs = 100
  ) {}

  get kind () { return this.inner.kind }
  ensureTopics (specs: TopicSpec[]): Promise<void> { return this.inner.ensureTopics(specs) }
  endOffsets (topic: string): Promise<number[]> { return this.inner.endOffsets(topic) }
  async maxAppendBytes (topic: string): Promise<number | undefined> { return await this.inner.maxAppendBytes?.(topic) }
  close (): Promise<void> { return this.inner.close() }

  async append (topic: string, records: LogRecord[]): Promise<void> {
    try {
      await this.inner.append(topic, records)
    } catch (err) {
      if (err instanceof RecordRejected || err instanceof LogUnavailable) throw err
      throw new LogUnavailable(topic, err)
    }
  }

  subscribe (options: SubscribeOptions): Promise<Subscription> {
    return this.inner.subscribe({ ...options, onBatch: records => this.process(options, records) })
  }

  private async process (options: SubscribeOptions, records: ConsumedRecord[]): Promise<void> {
    const component = `consumer:${options.group}`
    try {
      await options.onBatch(records)
      this.health.recovered(component)
      return
    } catch (err) {
      this.health.failing(component, err)
      if (isTransient(err)) throw err
      this.logger.warn({ err, group: options.group, topic: records[0]!.topic, partition: records[0]!.partition }, 'consumer: batch failed, retrying its records one by one')
    }
    for (const record of records) await this.processAlone(options, record, component)
    this.health.recovered(component)
  }

  private async processAlone (options: SubscribeOptions, record: ConsumedRecord, component: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await options.onBatch([record])
        return
      } catch (err) {
        this.health.failing(component, err)
        if (isTransient(err)) throw err
        if (attempt < DEAD_LETTER_AFTER) { await sleep(this.retryMs * attempt); continue }
        const source = { source_topic: record.topic, source_partition: String(record.partition), source_offset: String(record.offset), consumer_group: options.group }
        await appendDeadLetter(this, this.deadLetterTopic, deadLetterRecord(source, record.key, record.value, err))
        this.health.deadLettered(component)
        this.logger.error({ err, group: options.group, topic: record.topic, partition: record.partition, offset: record.offset }, 'consumer: record dead-lettered')
        await options.onDeadLettered?.(record)
        return
      }
    }
  }
}
