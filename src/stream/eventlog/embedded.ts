import type { RocksLevel } from '@nxtedition/rocksdb'
import { openRocks, scan, writeBatchSync, type WriteOp } from '../../stores/rocks.js'
import type { ConsumedRecord, EventLog, SubscribeOptions, Subscription, TopicSpec } from './event-log.js'
import { partitionFor } from './partitioner.js'
import type { LogRecord } from '../../domain/records/log-record.js'

// Key layout (all in one RocksDB at <dataDir>/log):
//   t <topic>                              -> topic spec (JSON)
//   r <topic> 0x00 <partition u32> <offset u64>  -> record
//   g <group> 0x00 <topic> 0x00 <partition u32> -> committed offset (next offset to read)
const SEP = Buffer.from([0])
const MAX_BATCH = 500
/**
 * Records kept in memory per partition after their append, at most TAIL records and TAIL_BYTES of values:
 * consumers at the tail read them without a scan. The bound is in bytes too because whatever a consumer
 * keeps for a record (a decoded decision) lives as long as the record does.
 */
const TAIL = 4096
const TAIL_BYTES = 1 << 20

function recordPrefix (topic: string, partition: number): Buffer {
  const p = Buffer.allocUnsafe(4)
  p.writeUInt32BE(partition)
  return Buffer.concat([Buffer.from('r' + topic), SEP, p])
}

function recordKey (prefix: Buffer, offset: number): Buffer {
  const o = Buffer.allocUnsafe(8)
  o.writeBigUInt64BE(BigInt(offset))
  return Buffer.concat([prefix, o])
}

function groupKey (group: string, topic: string, partition: number): Buffer {
  const p = Buffer.allocUnsafe(4)
  p.writeUInt32BE(partition)
  return Buffer.concat([Buffer.from('g' + group), SEP, Buffer.from(topic), SEP, p])
}

function encodeRecord (r: LogRecord, timestamp: number): Buffer {
  const meta = Buffer.from(JSON.stringify({ k: r.key, h: r.headers ?? {}, t: timestamp }))
  const len = Buffer.allocUnsafe(4)
  len.writeUInt32BE(meta.length)
  return Buffer.concat([len, meta, r.value])
}

function decodeRecord (topic: string, partition: number, offset: number, raw: Buffer): ConsumedRecord {
  const metaLength = raw.readUInt32BE(0)
  const meta = JSON.parse(raw.subarray(4, 4 + metaLength).toString()) as { k: string, h: Record<string, string>, t: number }
  return { topic, partition, offset, key: meta.k, headers: meta.h, timestamp: meta.t, value: raw.subarray(4 + metaLength) }
}

/** `tail[p]` holds the records of offsets `next[p] - tail[p].length` .. `next[p] - 1`, as consumers get them. */
interface Topic { spec: TopicSpec, next: number[], prefixes: Buffer[], tail: ConsumedRecord[][], tailBytes: number[] }

interface GroupMember { closed: boolean, wake: () => void }
interface Group { members: GroupMember[], busy: Set<string>, topics: Set<string> }

/** Durable append-only log in RocksDB with consumer groups and in-process dispatch. */
export class EmbeddedEventLog implements EventLog {
  readonly kind = 'embedded' as const
  private readonly topics = new Map<string, Topic>()
  private readonly groups = new Map<string, Group>()
  private readonly loops = new Set<Promise<void>>()
  private readonly committedOffsets = new Map<string, number>()

  private constructor (private readonly db: RocksLevel) {}

  static async open (location: string): Promise<EmbeddedEventLog> {
    const log = new EmbeddedEventLog(await openRocks(location, { memtableMb: 32, cacheMb: 8 }))
    for await (const [key, value] of scan(log.db, Buffer.from('t'), Buffer.from('u'))) {
      await log.loadTopic(JSON.parse(value.toString()) as TopicSpec, key)
    }
    return log
  }

  private async loadTopic (spec: TopicSpec, _key?: Buffer): Promise<void> {
    const next: number[] = []
    const prefixes: Buffer[] = []
    for (let p = 0; p < spec.partitions; p++) {
      const prefix = recordPrefix(spec.name, p)
      prefixes.push(prefix)
      next.push(await this.lastOffset(prefix) + 1)
    }
    this.topics.set(spec.name, { spec, next, prefixes, tail: next.map(() => []), tailBytes: next.map(() => 0) })
  }

  private async lastOffset (prefix: Buffer): Promise<number> {
    const it = this.db.iterator({ gte: prefix, lt: recordKey(prefix, Number.MAX_SAFE_INTEGER), reverse: true, limit: 1, values: false } as never) as unknown as AsyncIterable<[Buffer]> & { close(): Promise<void> }
    try {
      for await (const [key] of it) return Number(key.readBigUInt64BE(key.length - 8))
    } finally {
      await it.close()
    }
    return -1
  }

  async ensureTopics (specs: TopicSpec[]): Promise<void> {
    for (const spec of specs) {
      const existing = this.topics.get(spec.name)
      if (existing !== undefined) {
        if (existing.spec.partitions !== spec.partitions) throw new Error(`topic ${spec.name} exists with ${existing.spec.partitions} partitions`)
        continue
      }
      writeBatchSync(this.db, [{ type: 'put', key: Buffer.from('t' + spec.name), value: Buffer.from(JSON.stringify(spec)) }], true)
      await this.loadTopic(spec)
    }
  }

  private topic (name: string): Topic {
    const topic = this.topics.get(name)
    if (topic === undefined) throw new Error(`unknown topic ${name}`)
    return topic
  }

  async append (topicName: string, records: LogRecord[]): Promise<void> {
    const topic = this.topic(topicName)
    const now = Date.now()
    const ops: WriteOp[] = []
    const appended: ConsumedRecord[] = []
    const next = topic.next.slice()
    for (const r of records) {
      const p = partitionFor(r.partitionKey ?? r.key, topic.spec.partitions)
      const value = encodeRecord(r, r.timestamp ?? now)
      ops.push({ type: 'put', key: recordKey(topic.prefixes[p]!, next[p]!), value })
      // The value consumers get is the one appended (what a process remembered of it holds for them too).
      const consumed = decodeRecord(topicName, p, next[p]!, value)
      if (Buffer.isBuffer(r.value)) consumed.value = r.value
      appended.push(consumed)
      next[p]!++
    }
    writeBatchSync(this.db, ops, true)
    topic.next = next
    for (const r of appended) {
      const tail = topic.tail[r.partition]!
      tail.push(r)
      let bytes = topic.tailBytes[r.partition]! + r.value.length
      // Trimmed in chunks (an eighth of a bound over it), not a record at a time.
      if (tail.length > TAIL + TAIL / 8 || bytes > TAIL_BYTES + TAIL_BYTES / 8) {
        let drop = 0
        while (tail.length - drop > TAIL || bytes > TAIL_BYTES) bytes -= tail[drop++]!.value.length
        tail.splice(0, drop)
      }
      topic.tailBytes[r.partition] = bytes
    }
    for (const group of this.groups.values()) for (const m of group.members) m.wake()
  }

  async lag (): Promise<Record<string, number>> {
    const lag: Record<string, number> = {}
    for (const [name, group] of this.groups) {
      if (group.members.length === 0) continue
      let behind = 0
      for (const t of group.topics) {
        const topic = this.topic(t)
        for (let p = 0; p < topic.spec.partitions; p++) behind += topic.next[p]! - await this.peekCommitted(groupKey(name, t, p))
      }
      lag[name] = behind
    }
    return lag
  }

  async endOffsets (topicName: string): Promise<number[]> {
    return this.topic(topicName).next.slice()
  }

  async subscribe (options: SubscribeOptions): Promise<Subscription> {
    for (const t of options.topics) this.topic(t)
    let group = this.groups.get(options.group)
    if (group === undefined) {
      group = { members: [], busy: new Set(), topics: new Set() }
      this.groups.set(options.group, group)
    }
    for (const t of options.topics) group.topics.add(t)
    let wakeUp: (() => void) | undefined
    let signalled = false
    const member: GroupMember = {
      closed: false,
      wake: () => { signalled = true; wakeUp?.() }
    }
    group.members.push(member)
    const g = group
    const waitForWork = () => new Promise<void>(resolve => {
      if (signalled || member.closed) return resolve()
      wakeUp = resolve
    }).then(() => { signalled = false; wakeUp = undefined })

    const loop = (async () => {
      while (!member.closed) {
        signalled = false
        let delivered = false
        try {
          delivered = await this.pollOnce(options, g, member)
        } catch {
          // The handler failed: the same records are delivered again after a pause.
          await new Promise(resolve => setTimeout(resolve, 100))
          continue
        }
        if (!delivered) await waitForWork()
      }
    })()
    this.loops.add(loop)
    return {
      close: async () => {
        member.closed = true
        member.wake()
        await loop
        this.loops.delete(loop)
        g.members.splice(g.members.indexOf(member), 1)
        for (const m of g.members) m.wake()
      }
    }
  }

  /** Delivers at most one batch per assigned partition; true when anything was delivered. */
  private async pollOnce (options: SubscribeOptions, group: Group, member: GroupMember): Promise<boolean> {
    let delivered = false
    const index = group.members.indexOf(member)
    const size = group.members.length
    let slot = 0
    for (const topicName of options.topics) {
      const topic = this.topic(topicName)
      for (let p = 0; p < topic.spec.partitions; p++, slot++) {
        if (member.closed) return delivered
        if (slot % size !== index) continue
        const lock = topicName + '\0' + p
        if (group.busy.has(lock)) continue
        group.busy.add(lock)
        try {
          const committedKey = groupKey(options.group, topicName, p)
          const committed = await this.committed(committedKey, options.fromBeginning === false ? topic.next[p]! : 0)
          if (committed >= topic.next[p]!) continue
          const records = await this.read(topic, p, committed)
          if (records.length === 0) continue
          await options.onBatch(records)
          const next = records[records.length - 1]!.offset + 1
          writeBatchSync(this.db, [{ type: 'put', key: committedKey, value: Buffer.from(String(next)) }], false)
          this.committedOffsets.set(committedKey.toString('latin1'), next)
          delivered = true
        } finally {
          group.busy.delete(lock)
        }
      }
    }
    return delivered
  }

  /** Up to MAX_BATCH records of partition `p` from `offset`: from the tail in memory when it holds them. */
  private async read (topic: Topic, p: number, offset: number): Promise<ConsumedRecord[]> {
    const tail = topic.tail[p]!
    const first = topic.next[p]! - tail.length
    if (offset >= first) return tail.slice(offset - first, offset - first + MAX_BATCH)
    const records: ConsumedRecord[] = []
    for await (const [key, value] of scan(this.db, recordKey(topic.prefixes[p]!, offset), recordKey(topic.prefixes[p]!, topic.next[p]!), { limit: MAX_BATCH })) {
      records.push(decodeRecord(topic.spec.name, p, Number(key.readBigUInt64BE(key.length - 8)), value))
    }
    return records
  }

  /** A group's committed offset as it stands (0 when it has none yet), without recording one. */
  private async peekCommitted (key: Buffer): Promise<number> {
    const cached = this.committedOffsets.get(key.toString('latin1'))
    if (cached !== undefined) return cached
    const [value] = await this.db.getMany([key]) as Array<Buffer | undefined>
    return value === undefined ? 0 : Number(value.toString())
  }

  /** A group's committed offset: read from the store once, then kept in memory (this process is its only writer). */
  private async committed (key: Buffer, fallback: number): Promise<number> {
    const cacheKey = key.toString('latin1')
    const cached = this.committedOffsets.get(cacheKey)
    if (cached !== undefined) return cached
    const [value] = await this.db.getMany([key]) as Array<Buffer | undefined>
    let offset = fallback
    if (value !== undefined) offset = Number(value.toString())
    else writeBatchSync(this.db, [{ type: 'put', key, value: Buffer.from(String(fallback)) }], false)
    this.committedOffsets.set(cacheKey, offset)
    return offset
  }

  async close (): Promise<void> {
    for (const group of this.groups.values()) for (const m of group.members) { m.closed = true; m.wake() }
    await Promise.all([...this.loops])
    await this.db.close()
  }
}
