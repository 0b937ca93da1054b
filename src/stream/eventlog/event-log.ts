import type { LogRecord } from '../../domain/records/log-record.js'

export interface ConsumedRecord {
  topic: string
  partition: number
  offset: number
  key: string
  value: Buffer
  headers: Record<string, string>
  timestamp: number
}

export interface TopicSpec {
  name: string
  partitions: number
  /** Keep only the latest record per key (control-plane state). */
  compacted?: boolean
  /**
   * How long records stay, in ms; -1: forever. Unset: the log's default (Kafka's `log.retention.ms`, seven days,
   * counted from each record's timestamp, which producers set to the event time).
   */
  retentionMs?: number
  /** Records are stamped with the time the log appended them, not the producer's event time (internal topics). */
  appendTime?: boolean
}

export interface SubscribeOptions {
  /** Consumer group: members of one group share the partitions; each group keeps its own committed offsets. */
  group: string
  topics: string[]
  /** Where a group with no committed offset starts: the first record (default) or only new records. */
  fromBeginning?: boolean
  /**
   * Called with records of ONE partition in offset order. When it resolves the group's offset moves past
   * them; when it throws, the same records are delivered again. Delivery is at-least-once, so handlers are
   * idempotent (processors checkpoint offsets in their own write batch and skip what they have seen, stream/processor.ts).
   * `heartbeat`, where the log has one (Kafka), keeps the consumer in its group while a batch takes long (a
   * handler retrying it in place); it throws when the group is rebalancing.
   */
  onBatch(records: ConsumedRecord[], heartbeat?: () => Promise<void>): Promise<void>
}

export interface Subscription {
  close(): Promise<void>
}

/**
 * The log refused these records for what they are (too large for the topic, malformed), not because it is
 * unavailable: appending them again will fail again.
 */
export class RecordRejected extends Error {}

/** The log could not be reached or did not acknowledge (an outage): the same append may succeed later. */
export class LogUnavailable extends Error {
  constructor (readonly topic: string, cause: unknown) {
    super(`${topic}: ${(cause as Error)?.message ?? String(cause)}`, { cause })
  }
}

/**
 * The one narrow interface between the service and its transport. Two adapters implement it:
 * `embedded` (a durable append-only log in RocksDB, dispatched in process) and `kafka` (kafkajs).
 * The same contract tests (test/contract/eventlog.contract.ts) run against both.
 */
export interface EventLog {
  readonly kind: 'embedded' | 'kafka'
  ensureTopics(specs: TopicSpec[]): Promise<void>
  /** Resolves once the records are durable (fsynced locally, or acknowledged by all in-sync replicas). */
  append(topic: string, records: LogRecord[]): Promise<void>
  subscribe(options: SubscribeOptions): Promise<Subscription>
  /** Per partition, the offset the next appended record will get (records so far: 0 .. end-1). */
  endOffsets(topic: string): Promise<number[]>
  /**
   * Per consumer group subscribed through this log object: records appended to its topics that it has not
   * committed yet. A measure of how far behind this process's consumers are (GET /healthz).
   */
  lag?(): Promise<Record<string, number>>
  /** The same, per group, topic and partition (the metrics endpoint's figure). */
  partitionLag?(): Promise<PartitionLag[]>
  /** The most bytes one append to `topic` may carry, when the log has such a limit (Kafka's max.message.bytes). */
  maxAppendBytes?(topic: string): Promise<number | undefined>
  close(): Promise<void>
}

/** How many records of one partition a consumer group has not committed yet. */
export interface PartitionLag { group: string, topic: string, partition: number, lag: number }

/** Per group, the sum of its partitions' lag. */
export function lagByGroup (lags: readonly PartitionLag[]): Record<string, number> {
  const out: Record<string, number> = {}
  for (const l of lags) out[l.group] = (out[l.group] ?? 0) + l.lag
  return out
}
