import type { RocksLevel } from '@nxtedition/rocksdb'
import { readRangeSync, writeBatchSync } from '../../stores/rocks.js'
import { decodeRecord, groupKey, offsetOfKey, recordKey } from './embedded-format.js'
import { lagByGroup, type ConsumedRecord, type PartitionLag, type SubscribeOptions, type Subscription } from './event-log.js'

const MAX_BATCH = 500
/**
 * Records a window keeps, at most WINDOW records and WINDOW_BYTES of values. The bound is in bytes too because
 * whatever a consumer keeps for a record (a decoded decision) lives as long as the record does.
 */
const WINDOW = 4096
const WINDOW_BYTES = 1 << 20

/**
 * Consecutive records of one partition, kept after they were appended or read, so that the other consumer
 * groups at those offsets get them without a scan. It follows the front: records right after it extend it,
 * records past its end replace it, records before it (a group catching up) are not kept.
 */
export class RecordWindow {
  private records: ConsumedRecord[] = []
  private bytes = 0
  private first = 0

  /** Up to `max` records from `offset`, or undefined when the window does not hold that offset. */
  slice (offset: number, max: number): ConsumedRecord[] | undefined {
    const i = offset - this.first
    return i < 0 || i >= this.records.length ? undefined : this.records.slice(i, i + max)
  }

  /** The record at `offset`, if held, emptied (a tombstone compacted it: embedded.ts). */
  empty (offset: number): void {
    const i = offset - this.first
    const r = this.records[i]
    if (r === undefined) return
    this.bytes -= r.value.length
    this.records[i] = { ...r, value: Buffer.alloc(0) }
  }

  /** Keeps `records` (consecutive, in offset order). */
  add (records: readonly ConsumedRecord[]): void {
    if (records.length === 0) return
    const end = this.first + this.records.length
    const offset = records[0]!.offset
    if (offset < end) return
    if (offset > end) {
      this.records = []
      this.bytes = 0
      this.first = offset
    }
    for (const r of records) {
      this.records.push(r)
      this.bytes += r.value.length
    }
    // Trimmed in chunks (an eighth of a bound over it), not a record at a time.
    if (this.records.length > WINDOW + WINDOW / 8 || this.bytes > WINDOW_BYTES + WINDOW_BYTES / 8) {
      let drop = 0
      while (this.records.length - drop > WINDOW || this.bytes > WINDOW_BYTES) this.bytes -= this.records[drop++]!.value.length
      this.records.splice(0, drop)
      this.first += drop
    }
  }
}

/**
 * A topic as its consumers see it: `next[p]` is the offset partition p's next record will get; `windows[p]`
 * holds the records of partition p appended or read lately.
 */
export interface TopicPosition { name: string, next: number[], prefixes: Buffer[], windows: RecordWindow[] }

/** The topic `name` of `topics`; a topic the log does not hold is an error. */
export function topicIn<T extends TopicPosition> (topics: ReadonlyMap<string, T>, name: string): T {
  const topic = topics.get(name)
  if (topic === undefined) throw new Error(`unknown topic ${name}`)
  return topic
}

interface GroupMember { closed: boolean, wake: () => void }
interface Group { members: GroupMember[], busy: Set<string>, topics: Set<string> }

/**
 * The consumer groups of an embedded log: members share a group's partitions, each group keeps its committed
 * offsets in the log's database. Runs where the log is written (the main thread) or beside it, over the same
 * database (the topology worker: stream/eventlog/follower.ts); `wake` is called after every append.
 */
export class ConsumerGroups {
  private readonly groups = new Map<string, Group>()
  private readonly loops = new Set<Promise<void>>()
  private readonly committedOffsets = new Map<string, number>()

  constructor (private readonly db: RocksLevel, private readonly topics: ReadonlyMap<string, TopicPosition>) {}

  private topic (name: string): TopicPosition {
    return topicIn(this.topics, name)
  }

  wake (): void {
    for (const group of this.groups.values()) for (const m of group.members) m.wake()
  }

  async lag (): Promise<Record<string, number>> {
    const lag: Record<string, number> = {}
    for (const [name, group] of this.groups) if (group.members.length > 0) lag[name] = 0
    return { ...lag, ...lagByGroup(await this.partitionLag()) }
  }

  async partitionLag (): Promise<PartitionLag[]> {
    const out: PartitionLag[] = []
    for (const [name, group] of this.groups) {
      if (group.members.length === 0) continue
      for (const t of group.topics) {
        const topic = this.topic(t)
        for (let p = 0; p < topic.next.length; p++) out.push({ group: name, topic: t, partition: p, lag: topic.next[p]! - await this.peekCommitted(groupKey(name, t, p)) })
      }
    }
    return out
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

  /** Stops every member and waits for the batches they are delivering. */
  async close (): Promise<void> {
    for (const group of this.groups.values()) for (const m of group.members) { m.closed = true; m.wake() }
    await Promise.all([...this.loops])
  }

  /** Delivers at most one batch per assigned partition; true when anything was delivered. */
  private async pollOnce (options: SubscribeOptions, group: Group, member: GroupMember): Promise<boolean> {
    let delivered = false
    const index = group.members.indexOf(member)
    const size = group.members.length
    let slot = 0
    for (const topicName of options.topics) {
      const topic = this.topic(topicName)
      for (let p = 0; p < topic.next.length; p++, slot++) {
        if (member.closed) return delivered
        if (slot % size !== index) continue
        const lock = topicName + '\0' + p
        if (group.busy.has(lock)) continue
        group.busy.add(lock)
        try {
          const committedKey = groupKey(options.group, topicName, p)
          const committed = await this.committed(committedKey, options.fromBeginning === false ? topic.next[p]! : 0)
          if (committed >= topic.next[p]!) continue
          const records = this.read(topic, p, committed)
          if (records.length === 0) continue
          await options.onBatch(records)
          const next = records[records.length - 1]!.offset + 1
          this.committedOffsets.set(committedKey.toString('latin1'), next)
          this.persist(committedKey, next)
          delivered = true
        } finally {
          group.busy.delete(lock)
        }
      }
    }
    return delivered
  }

  /** Up to MAX_BATCH records of partition `p` from `offset`: from the partition's window when it holds them. */
  private read (topic: TopicPosition, p: number, offset: number): ConsumedRecord[] {
    const window = topic.windows[p]!
    const kept = window.slice(offset, MAX_BATCH)
    if (kept !== undefined) return kept
    const entries = readRangeSync(this.db, recordKey(topic.prefixes[p]!, offset), recordKey(topic.prefixes[p]!, topic.next[p]!), MAX_BATCH)
    const records = entries.map(([key, value]) => decodeRecord(topic.name, p, offsetOfKey(key), value))
    window.add(records)
    return records
  }

  /** A group's committed offset as it stands (0 when it has none yet), without recording one. */
  private async peekCommitted (key: Buffer): Promise<number> {
    const cached = this.committedOffsets.get(key.toString('latin1'))
    if (cached !== undefined) return cached
    const [value] = await this.db.getMany([key]) as Array<Buffer | undefined>
    return value === undefined ? 0 : Number(value.toString())
  }

  /** A group's committed offset: read from the store once, then kept in memory (a group is consumed, so written, by one ConsumerGroups only). */
  private async committed (key: Buffer, fallback: number): Promise<number> {
    const cacheKey = key.toString('latin1')
    const cached = this.committedOffsets.get(cacheKey)
    if (cached !== undefined) return cached
    const [value] = await this.db.getMany([key]) as Array<Buffer | undefined>
    let offset = fallback
    if (value !== undefined) offset = Number(value.toString())
    else this.persist(key, fallback)
    this.committedOffsets.set(cacheKey, offset)
    return offset
  }

  /**
   * Writes a committed offset. The offset in memory is what the group goes on from: a write the store refuses
   * (a full disk) is not retried here, the next commit of the partition writes a later offset, and a restart
   * before it redelivers from the last one written (delivery is at-least-once; processors skip what they
   * checkpointed). The storage health hears of the failure (stores/storage-health.ts).
   */
  private persist (key: Buffer, offset: number): void {
    try {
      writeBatchSync(this.db, [{ type: 'put', key, value: Buffer.from(String(offset)) }], false)
    } catch { /* see above */ }
  }
}
