import type { RocksLevel } from '@nxtedition/rocksdb'
import { openRocks, readRangeSync, scan, writeBatchSync, type WriteOp } from '../../stores/rocks.js'
import { rangeAfter } from '../../stores/keys.js'
import { decodeRecord, encodeRecord, offsetOfKey, recordKey, recordPrefix, topicKey } from './embedded-format.js'
import { ConsumerGroups, RecordWindow, topicIn, type TopicPosition } from './embedded-groups.js'
import type { ConsumedRecord, EventLog, PartitionLag, SubscribeOptions, Subscription, TopicSpec } from './event-log.js'
import { partitionFor } from './partitioner.js'
import type { LogRecord } from '../../domain/records/log-record.js'

interface Topic extends TopicPosition { spec: TopicSpec }
const EMPTY = new Uint8Array(0)

/**
 * Told of every append: the topic, per partition the offset its next record will get, and the records a tombstone
 * emptied ([partition, offset]: a reader holding them in memory empties its copy).
 */
export type AppendListener = (topic: string, next: readonly number[], emptied: ReadonlyArray<readonly [number, number]>) => void

/**
 * Durable append-only log in RocksDB with consumer groups and in-process dispatch. Appends happen here only
 * (they number the records); consumers may also run beside it on another thread over the same database
 * (`handle`, `onAppend`: the topology worker's log, stream/eventlog/follower.ts).
 */
export class EmbeddedEventLog implements EventLog {
  readonly kind = 'embedded' as const
  private readonly topics = new Map<string, Topic>()
  private readonly groups: ConsumerGroups
  private readonly listeners = new Set<AppendListener>()

  private constructor (private readonly db: RocksLevel) {
    this.groups = new ConsumerGroups(db, this.topics)
  }

  static async open (location: string): Promise<EmbeddedEventLog> {
    // A compression dictionary: records are appended once and rarely rewritten, and it keeps their files at 2/5.
    const log = new EmbeddedEventLog(await openRocks(location, { memtableMb: 32, cacheMb: 8, dictionary: true }))
    for await (const [, value] of scan(log.db, Buffer.from('t'), Buffer.from('u'))) {
      await log.loadTopic(JSON.parse(value.toString()) as TopicSpec)
    }
    return log
  }

  /** The database itself (its writes are watched by the storage health, stores/storage-health.ts). */
  get database (): RocksLevel {
    return this.db
  }

  /** The database, for a thread that reads it beside this one (RocksDB is safe to share across threads). */
  get handle (): bigint {
    return (this.db as unknown as { handle: bigint }).handle
  }

  /** Calls `listener` after every append from now on; returns a function that stops it. */
  onAppend (listener: AppendListener): () => void {
    this.listeners.add(listener)
    return () => { this.listeners.delete(listener) }
  }

  private async loadTopic (spec: TopicSpec): Promise<void> {
    const next: number[] = []
    const prefixes: Buffer[] = []
    for (let p = 0; p < spec.partitions; p++) {
      const prefix = recordPrefix(spec.name, p)
      prefixes.push(prefix)
      next.push(await this.lastOffset(prefix) + 1)
    }
    this.topics.set(spec.name, { name: spec.name, spec, next, prefixes, windows: next.map(() => new RecordWindow()) })
  }

  private async lastOffset (prefix: Buffer): Promise<number> {
    for await (const [key] of scan(this.db, prefix, recordKey(prefix, Number.MAX_SAFE_INTEGER), { reverse: true, limit: 1 })) return offsetOfKey(key)
    return -1
  }

  async ensureTopics (specs: TopicSpec[]): Promise<void> {
    for (const spec of specs) {
      const existing = this.topics.get(spec.name)
      if (existing !== undefined) {
        if (existing.spec.partitions !== spec.partitions) throw new Error(`topic ${spec.name} exists with ${existing.spec.partitions} partitions`)
        continue
      }
      writeBatchSync(this.db, [{ type: 'put', key: topicKey(spec.name), value: Buffer.from(JSON.stringify(spec)) }], true)
      await this.loadTopic(spec)
    }
  }

  private topic (name: string): Topic {
    return topicIn(this.topics, name)
  }

  async append (topicName: string, records: LogRecord[]): Promise<void> {
    const topic = this.topic(topicName)
    const now = Date.now()
    const ops: WriteOp[] = []
    // Per partition, in offset order: what consumers at the front then read from memory.
    const appended: ConsumedRecord[][] = topic.next.map(() => [])
    const next = topic.next.slice()
    for (const r of records) {
      const p = r.partition ?? partitionFor(r.partitionKey ?? r.key, topic.spec.partitions)
      const value = encodeRecord(r, r.timestamp ?? now)
      ops.push({ type: 'put', key: recordKey(topic.prefixes[p]!, next[p]!), value })
      // The value consumers get is the one appended (what a process remembered of it holds for them too).
      const consumed = decodeRecord(topicName, p, next[p]!, value)
      if (Buffer.isBuffer(r.value)) consumed.value = r.value
      appended[p]!.push(consumed)
      next[p]!++
    }
    const emptied = topic.spec.compacted === true ? this.compacted(topic, appended) : []
    for (const e of emptied) ops.push(e.op)
    writeBatchSync(this.db, ops, true)
    for (const e of emptied) topic.windows[e.partition]!.empty(e.offset)
    topic.next = next
    for (let p = 0; p < appended.length; p++) topic.windows[p]!.add(appended[p]!)
    this.groups.wake()
    const emptiedAt = emptied.map(e => [e.partition, e.offset] as const)
    for (const listener of this.listeners) listener(topicName, next, emptiedAt)
  }

  /**
   * Compaction of tombstones, the part of Kafka's this log has: a record with an empty value on a compacted topic
   * empties every earlier record of its key in its partition (key, headers and offsets stay), in the same write.
   * What an erased tenant had there is then gone from the disk too (stores/erasure.ts). One scan per partition,
   * synchronous like the rest of an append, so no other append comes between.
   */
  private compacted (topic: Topic, appended: ConsumedRecord[][]): Array<{ op: WriteOp, partition: number, offset: number }> {
    const emptied: Array<{ op: WriteOp, partition: number, offset: number }> = []
    for (let p = 0; p < appended.length; p++) {
      const keys = new Set(appended[p]!.filter(r => r.value.length === 0).map(r => r.key))
      if (keys.size === 0) continue
      const prefix = topic.prefixes[p]!
      const end = recordKey(prefix, topic.next[p]!)
      for (let from = prefix, rows = readRangeSync(this.db, from, end, 1000); rows.length > 0; rows = readRangeSync(this.db, from, end, 1000)) {
        for (const [key, value] of rows) {
          const r = decodeRecord(topic.name, p, offsetOfKey(key), value)
          if (r.value.length > 0 && keys.has(r.key)) emptied.push({ op: { type: 'put', key, value: encodeRecord({ key: r.key, value: EMPTY, headers: r.headers }, r.timestamp) }, partition: p, offset: r.offset })
        }
        from = rangeAfter([prefix, end], rows[rows.length - 1]![0])[0]
      }
    }
    return emptied
  }

  lag (): Promise<Record<string, number>> {
    return this.groups.lag()
  }

  partitionLag (): Promise<PartitionLag[]> {
    return this.groups.partitionLag()
  }

  async endOffsets (topicName: string): Promise<number[]> {
    return this.topic(topicName).next.slice()
  }

  subscribe (options: SubscribeOptions): Promise<Subscription> {
    return this.groups.subscribe(options)
  }

  async close (): Promise<void> {
    await this.groups.close()
    await this.db.close()
  }
}
