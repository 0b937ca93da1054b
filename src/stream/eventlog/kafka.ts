import { Kafka, Partitioners, logLevel, type Admin, type Consumer, type Producer } from 'kafkajs'
import type { Logger } from 'pino'
import { lagByGroup, RecordRejected, type ConsumedRecord, type EventLog, type PartitionLag, type SubscribeOptions, type Subscription, type TopicSpec } from './event-log.js'
import { partitionFor } from './partitioner.js'
import { BackgroundOffsetCommits } from './kafka-offsets.js'
import type { LogRecord } from '../../domain/records/log-record.js'

export interface KafkaEventLogOptions {
  brokers: string[]
  clientId: string
  logger?: Logger
}

function toKafkaLogLevel (logger?: Logger) {
  return logger === undefined ? logLevel.NOTHING : logLevel.WARN
}

/** A subscription's consumer, the batch it is processing and its offsets on their way to the group coordinator. */
interface RunningConsumer { consumer: Consumer, offsets: BackgroundOffsetCommits, closing: boolean, batch: Promise<void> | undefined }

/**
 * Stops taking batches, lets the one being processed finish, commits its offsets and leaves the group (a
 * commit needs the membership that disconnecting gives up).
 */
async function closeConsumer (running: RunningConsumer): Promise<void> {
  running.closing = true
  await running.batch?.catch(() => {})
  await running.offsets.drain()
  await running.consumer.disconnect()
}

/** A topic's settings as Kafka topic configs. */
function topicConfig (spec: TopicSpec): Array<{ name: string, value: string }> {
  const entries = []
  if (spec.compacted === true) entries.push({ name: 'cleanup.policy', value: 'compact' })
  if (spec.retentionMs !== undefined) entries.push({ name: 'retention.ms', value: String(spec.retentionMs) })
  if (spec.appendTime === true) entries.push({ name: 'message.timestamp.type', value: 'LogAppendTime' })
  return entries
}

/** EventLog on Apache Kafka through kafkajs: idempotent producer (acks=all, one request in flight, so order holds). */
export class KafkaEventLog implements EventLog {
  readonly kind = 'kafka' as const
  private readonly kafka: Kafka
  /** The producer once connected: every append waits for the same connect (see connectedProducer). */
  private producer: Promise<Producer> | undefined
  private readonly consumers = new Set<RunningConsumer>()
  /** Its log lines and kafkajs's, bound to `component: 'kafka'`. */
  private readonly logger: Logger | undefined

  constructor (options: KafkaEventLogOptions) {
    const log = this.logger = options.logger?.child({ component: 'kafka' })
    this.kafka = new Kafka({
      clientId: options.clientId,
      brokers: options.brokers,
      logLevel: toKafkaLogLevel(log),
      logCreator: () => ({ namespace, level, log: entry }) => {
        const { message, ...extra } = entry
        if (level <= logLevel.ERROR) log?.error({ namespace, ...extra }, message)
        else log?.warn({ namespace, ...extra }, message)
      },
      retry: { initialRetryTime: 100, retries: 8 }
    })
  }

  async ensureTopics (specs: TopicSpec[]): Promise<void> {
    const admin = this.kafka.admin()
    await admin.connect()
    try {
      // Lists every topic of the cluster: one of them may be electing its leaders (a fresh cluster creates
      // __consumer_offsets when the first group asks for its coordinator), an answer that passes.
      const existing = new Set(await retrying(() => admin.listTopics()))
      const missing = specs.filter(s => !existing.has(s.name))
      if (missing.length > 0) {
        try {
          // Leaders are awaited below, with retries: kafkajs' own wait fails on a transient UNKNOWN_TOPIC_OR_PARTITION.
          await admin.createTopics({
            waitForLeaders: false,
            topics: missing.map(s => ({
              topic: s.name,
              numPartitions: s.partitions,
              configEntries: topicConfig(s)
            }))
          })
        } catch (err) {
          // Another instance created some of them at the same moment.
          if ((err as { type?: string }).type !== 'TOPIC_ALREADY_EXISTS' && !String((err as Error).message).includes('already exists')) throw err
        }
      }
      await this.untilLeadersKnown(admin, specs.map(s => s.name))
    } finally {
      await admin.disconnect()
    }
  }

  /**
   * A topic another instance has just created is listed before every broker serves its metadata; consumers
   * subscribing then fail with UNKNOWN_TOPIC_OR_PARTITION. Wait until each partition has a leader.
   */
  private async untilLeadersKnown (admin: Admin, topics: string[], timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      try {
        const meta = await admin.fetchTopicMetadata({ topics })
        if (meta.topics.every(t => t.partitions.length > 0 && t.partitions.every(p => p.leader >= 0))) return
      } catch (err) {
        if (Date.now() > deadline) throw err
      }
      if (Date.now() > deadline) throw new Error(`topics ${topics.join(', ')} have no leaders after ${timeoutMs} ms`)
      await new Promise(resolve => setTimeout(resolve, 100))
    }
  }

  /**
   * The shared idempotent producer, once connected. kafkajs' connect() marks the producer connected before
   * its InitProducerId has answered, and a send() issued before that fails: "The producer is disconnected"
   * while the cluster connects, then "Cannot read properties of undefined (reading 'release')" from
   * eosManager.releaseBrokerLock (the lock was skipped while no producer id existed), its records written
   * all the same. The producer used to be handed out before connect() returned, so appends concurrent with
   * the first one (every consumer's first batch after a restart) failed that way. Every append now waits
   * for the one connect; a connect that failed is dropped (its producer disconnected) and the next append
   * starts afresh.
   */
  private connectedProducer (): Promise<Producer> {
    if (this.producer === undefined) {
      const producer = this.kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        createPartitioner: Partitioners.DefaultPartitioner
      })
      const connecting = producer.connect().then(() => producer, async (err: unknown) => {
        if (this.producer === connecting) this.producer = undefined
        await producer.disconnect().catch(() => {})
        throw err
      })
      this.producer = connecting
    }
    return this.producer
  }

  async append (topic: string, records: LogRecord[]): Promise<void> {
    if (records.length === 0) return
    const producer = await this.connectedProducer()
    const partitions = records.some(r => r.partitionKey !== undefined) ? await this.partitionCount(topic) : 0
    await rejectedFor(producer.send({
      topic,
      acks: -1,
      messages: records.map(r => ({
        key: r.key,
        partition: r.partition ?? (r.partitionKey === undefined ? undefined : partitionFor(r.partitionKey, partitions)),
        // An empty value is appended as null: on a compacted topic, a tombstone (consumers read both as empty).
        value: r.value.byteLength === 0 ? null : Buffer.from(r.value.buffer, r.value.byteOffset, r.value.byteLength),
        headers: r.headers,
        timestamp: r.timestamp === undefined ? undefined : String(r.timestamp)
      }))
    }))
  }

  private readonly maxBytes = new Map<string, number>()

  /** The topic's max.message.bytes (a record batch, per partition, at most this large), read once from the broker. */
  async maxAppendBytes (topic: string): Promise<number | undefined> {
    let bytes = this.maxBytes.get(topic)
    if (bytes === undefined) {
      const admin = this.kafka.admin()
      await admin.connect()
      try {
        const described = await admin.describeConfigs({ includeSynonyms: false, resources: [{ type: TOPIC_RESOURCE, name: topic, configNames: ['max.message.bytes'] }] })
        const value = described.resources[0]?.configEntries.find(e => e.configName === 'max.message.bytes')?.configValue
        bytes = value === undefined ? DEFAULT_MAX_MESSAGE_BYTES : Number(value)
      } finally {
        await admin.disconnect()
      }
      this.maxBytes.set(topic, bytes)
    }
    return bytes
  }

  private readonly partitionCounts = new Map<string, number>()

  private async partitionCount (topic: string): Promise<number> {
    let count = this.partitionCounts.get(topic)
    if (count === undefined) {
      const admin = this.kafka.admin()
      await admin.connect()
      try {
        const [meta] = (await admin.fetchTopicMetadata({ topics: [topic] })).topics
        count = meta!.partitions.length
      } finally {
        await admin.disconnect()
      }
      this.partitionCounts.set(topic, count)
    }
    return count
  }

  private admin: Admin | undefined

  /** The admin client endOffsets and lag share, connected on first use. */
  private async adminClient (): Promise<Admin> {
    if (this.admin === undefined) {
      const admin = this.kafka.admin()
      await admin.connect()
      this.admin = admin
    }
    return this.admin
  }

  async endOffsets (topic: string): Promise<number[]> {
    const admin = await this.adminClient()
    const offsets = await retrying(() => admin.fetchTopicOffsets(topic))
    const ends: number[] = []
    for (const o of offsets) ends[o.partition] = Number(o.high)
    return ends
  }

  /** Topics of each group subscribed through this object. */
  private readonly subscribed = new Map<string, Set<string>>()

  async lag (): Promise<Record<string, number>> {
    const lag = Object.fromEntries([...this.subscribed.keys()].map(group => [group, 0]))
    return { ...lag, ...lagByGroup(await this.partitionLag()) }
  }

  async partitionLag (): Promise<PartitionLag[]> {
    const admin = await this.adminClient()
    // Several groups read the same topics: each topic's ends are fetched once per call. Groups are asked at
    // once: asked in turn, each answer waited for a turn of an event loop busy with batches.
    const ends = new Map<string, Promise<number[]>>()
    const endsOf = (topic: string) => { let e = ends.get(topic); if (e === undefined) ends.set(topic, e = this.endOffsets(topic)); return e }
    const behind = async (group: string, topics: Set<string>): Promise<PartitionLag[]> => {
      const committed = await retrying(() => admin.fetchOffsets({ groupId: group, topics: [...topics] }))
      const out: PartitionLag[] = []
      for (const { topic, partitions } of committed) {
        const high = await endsOf(topic)
        for (const { partition, offset } of partitions) out.push({ group, topic, partition, lag: high[partition]! - Math.max(0, Number(offset)) })
      }
      return out
    }
    return (await Promise.all([...this.subscribed].map(([group, topics]) => behind(group, topics)))).flat()
  }

  async subscribe (options: SubscribeOptions): Promise<Subscription> {
    // maxWaitTimeInMs bounds how long a fetch waits on an idle partition, and so how long leaving the group takes on shutdown.
    const consumer = this.kafka.consumer({ groupId: options.group, allowAutoTopicCreation: false, sessionTimeout: 10000, heartbeatInterval: 1000, rebalanceTimeout: 10000, maxWaitTimeInMs: 1000 })
    await consumer.connect()
    const running: RunningConsumer = { consumer, offsets: new BackgroundOffsetCommits(consumer, this.logger), closing: false, batch: undefined }
    await retrying(() => consumer.subscribe({ topics: options.topics, fromBeginning: options.fromBeginning !== false }))
    await consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
        if (!isRunning() || isStale() || running.closing || batch.messages.length === 0) return
        const records: ConsumedRecord[] = batch.messages.map(m => ({
          topic: batch.topic,
          partition: batch.partition,
          offset: Number(m.offset),
          key: m.key?.toString() ?? '',
          value: m.value ?? Buffer.alloc(0),
          headers: Object.fromEntries(Object.entries(m.headers ?? {}).map(([k, v]) => [k, String(v)])),
          timestamp: Number(m.timestamp)
        }))
        running.batch = options.onBatch(records, heartbeat)
        try {
          await running.batch
        } finally {
          running.batch = undefined
        }
        resolveOffset(batch.lastOffset())
        running.offsets.commit(batch.topic, batch.partition, records[records.length - 1]!.offset + 1)
        await heartbeat()
      }
    })
    this.consumers.add(running)
    const topics = this.subscribed.get(options.group) ?? new Set()
    for (const t of options.topics) topics.add(t)
    this.subscribed.set(options.group, topics)
    return {
      close: async () => {
        this.consumers.delete(running)
        this.subscribed.delete(options.group)
        await closeConsumer(running)
      }
    }
  }

  async close (): Promise<void> {
    await Promise.all([...this.consumers].map(closeConsumer))
    this.consumers.clear()
    const producer = this.producer
    this.producer = undefined
    await (await producer?.catch(() => undefined))?.disconnect()
    await this.admin?.disconnect()
    this.admin = undefined
  }
}

/** ConfigResourceTypes.TOPIC (kafkajs' enum is not a named ESM export of its CommonJS module). */
const TOPIC_RESOURCE = 2

/** Kafka's default max.message.bytes, when the broker does not say. */
const DEFAULT_MAX_MESSAGE_BYTES = 1_048_588

/** Broker answers that refuse the records themselves: sending them again fails again. */
const REJECTING = new Set(['MESSAGE_TOO_LARGE', 'RECORD_LIST_TOO_LARGE', 'INVALID_RECORD', 'CORRUPT_MESSAGE', 'INVALID_TIMESTAMP', 'UNSUPPORTED_COMPRESSION_TYPE'])

/** A send's failure as RecordRejected when the broker refused the records for what they are (anywhere in the cause chain). */
async function rejectedFor<T> (sending: Promise<T>): Promise<T> {
  try {
    return await sending
  } catch (err) {
    for (let e: unknown = err; e !== undefined && e !== null; e = (e as { cause?: unknown, originalError?: unknown }).cause ?? (e as { originalError?: unknown }).originalError) {
      const type = (e as { type?: string }).type
      if (type !== undefined && REJECTING.has(type)) throw new RecordRejected(`the broker refused the records: ${type} (${(e as Error).message})`)
    }
    throw err
  }
}

/**
 * Retries what a just-created topic answers for a moment (NOT_LEADER_OR_FOLLOWER, UNKNOWN_TOPIC_OR_PARTITION,
 * LEADER_NOT_AVAILABLE), also once kafkajs has given up its own retries on such an answer: a leader election
 * can outlast them.
 */
async function retrying<T> (run: () => Promise<T>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  const passing = (err: unknown) => (err as { retriable?: boolean }).retriable === true ||
    ((err as Error).name === 'KafkaJSNumberOfRetriesExceeded' && ((err as Error).cause as { retriable?: boolean } | undefined)?.retriable === true)
  for (;;) {
    try {
      return await run()
    } catch (err) {
      if (!passing(err) || Date.now() > deadline) throw err
      await new Promise(resolve => setTimeout(resolve, 100))
    }
  }
}
