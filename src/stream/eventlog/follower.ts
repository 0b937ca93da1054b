import type { MessagePort, Worker } from 'node:worker_threads'
import type { RocksLevel } from '@nxtedition/rocksdb'
import { openShared } from '../../stores/rocks.js'
import { StorageUnavailable } from '../../stores/storage-fault.js'
import type { LogRecord } from '../../domain/records/log-record.js'
import type { EmbeddedEventLog } from './embedded.js'
import { recordPrefix } from './embedded-format.js'
import { ConsumerGroups, RecordWindow, type TopicPosition } from './embedded-groups.js'
import { LogUnavailable, RecordRejected, type EventLog, type PartitionLag, type SubscribeOptions, type Subscription, type TopicSpec } from './event-log.js'

/**
 * The main thread's embedded log, used from a worker thread (the one-process service runs its topologies in
 * a worker). The worker consumes on its own: it reads records and keeps its groups' offsets in the same
 * RocksDB database, shared by handle, so a record is not copied across threads for each consumer group. What
 * crosses is small: appends and topic calls (answered by the main thread, which numbers every record) and,
 * after each append, the topic's new end offsets, which wake the worker's consumers.
 */
type Endpoint = Pick<MessagePort, 'postMessage' | 'on' | 'off'>

type Method = 'append' | 'endOffsets' | 'ensureTopics' | 'maxAppendBytes'
type Request = { op: 'call', id: number, method: Method, args: unknown[] }
type Message =
  | { op: 'result', id: number, value?: unknown, error?: WireError }
  | { op: 'appended', topic: string, next: readonly number[], emptied?: ReadonlyArray<readonly [number, number]> }

interface WireError { name: string, message: string }

const toWire = (err: unknown): WireError => ({ name: err instanceof Error ? err.constructor.name : 'Error', message: err instanceof Error ? err.message : String(err) })

function fromWire (e: WireError, topic = ''): Error {
  if (e.name === 'RecordRejected') return new RecordRejected(e.message)
  if (e.name === 'LogUnavailable') return new LogUnavailable(topic, new Error(e.message))
  if (e.name === 'StorageUnavailable') return new LogUnavailable(topic, new StorageUnavailable('log', new Error(e.message)))
  const err = new Error(e.message)
  err.name = e.name
  return err
}

/** A value of its own (a Buffer may view a larger pooled buffer, which a message would copy whole). */
const own = (value: Uint8Array): Uint8Array => new Uint8Array(value)
const asBuffer = (value: Uint8Array): Buffer => Buffer.from(value.buffer, value.byteOffset, value.byteLength)

/** Answers the calls of the follower at the other end of `port` and tells it of every append; returns a function that stops. */
export function serveFollower (log: EmbeddedEventLog, port: Endpoint | Worker): () => void {
  const stopTelling = log.onAppend((topic, next, emptied) => port.postMessage({ op: 'appended', topic, next, ...(emptied.length === 0 ? {} : { emptied }) } satisfies Message))
  const onMessage = async (message: { op?: string }) => {
    // The same port carries the worker's own messages (health, ready, stopped): those are not for the log.
    if (message.op !== 'call') return
    const m = message as Request
    try {
      const args = m.method === 'append' ? [m.args[0], (m.args[1] as LogRecord[]).map(r => ({ ...r, value: asBuffer(r.value) }))] : m.args
      const value = await ((log as EventLog)[m.method] as ((...a: unknown[]) => Promise<unknown>) | undefined)?.apply(log, args)
      port.postMessage({ op: 'result', id: m.id, value } satisfies Message)
    } catch (err) {
      port.postMessage({ op: 'result', id: m.id, error: toWire(err) } satisfies Message)
    }
  }
  port.on('message', onMessage)
  return () => {
    stopTelling()
    port.off('message', onMessage)
  }
}

/** The worker's side of `serveFollower`: consumes the shared database itself, appends through the main thread. */
export class FollowerEventLog implements EventLog {
  readonly kind = 'embedded' as const
  private nextId = 0
  private readonly calls = new Map<number, { resolve(value: unknown): void, reject(err: Error): void, topic?: string }>()
  private readonly topics = new Map<string, TopicPosition>()
  private readonly groups: ConsumerGroups

  private constructor (db: RocksLevel, private readonly port: Endpoint) {
    this.groups = new ConsumerGroups(db, this.topics)
    port.on('message', (m: Message | { op?: string }) => { this.receive(m as Message) })
  }

  /** `handle`: the main thread's EmbeddedEventLog#handle; `port`: where `serveFollower` answers. */
  static async open (handle: bigint, port: Endpoint): Promise<FollowerEventLog> {
    return new FollowerEventLog(await openShared(handle), port)
  }

  private receive (m: Message): void {
    if (m.op === 'appended') {
      this.advance(m.topic, m.next)
      for (const [p, offset] of m.emptied ?? []) this.topics.get(m.topic)?.windows[p]?.empty(offset)
      this.groups.wake()
    } else if (m.op === 'result') {
      const call = this.calls.get(m.id)
      this.calls.delete(m.id)
      if (m.error === undefined) call?.resolve(m.value)
      else call?.reject(fromWire(m.error, call.topic))
    }
  }

  /** End offsets only grow: a reply computed before an append may arrive after that append's notice. */
  private advance (name: string, next: readonly number[]): void {
    const topic = this.topics.get(name)
    if (topic === undefined) {
      this.topics.set(name, { name, next: next.slice(), prefixes: next.map((_, p) => recordPrefix(name, p)), windows: next.map(() => new RecordWindow()) })
      return
    }
    for (let p = 0; p < next.length; p++) topic.next[p] = Math.max(topic.next[p]!, next[p]!)
  }

  private call<T> (method: Method, args: unknown[], topic?: string): Promise<T> {
    const id = this.nextId++
    return new Promise<T>((resolve, reject) => {
      this.calls.set(id, { resolve: resolve as (v: unknown) => void, reject, topic })
      this.port.postMessage({ op: 'call', id, method, args } satisfies Request)
    })
  }

  ensureTopics (specs: TopicSpec[]): Promise<void> { return this.call('ensureTopics', [specs]) }
  maxAppendBytes (topic: string): Promise<number | undefined> { return this.call('maxAppendBytes', [topic]) }
  append (topic: string, records: LogRecord[]): Promise<void> {
    return this.call('append', [topic, records.map(r => ({ ...r, value: own(r.value) }))], topic)
  }

  async endOffsets (topic: string): Promise<number[]> {
    const next = await this.call<number[]>('endOffsets', [topic], topic)
    this.advance(topic, next)
    return this.topics.get(topic)!.next.slice()
  }

  async subscribe (options: SubscribeOptions): Promise<Subscription> {
    for (const t of options.topics) await this.endOffsets(t)
    return this.groups.subscribe(options)
  }

  lag (): Promise<Record<string, number>> {
    return this.groups.lag()
  }

  partitionLag (): Promise<PartitionLag[]> {
    return this.groups.partitionLag()
  }

  /** Stops this thread's consumers; the database stays open: it belongs to the main thread. */
  async close (): Promise<void> {
    await this.groups.close()
  }
}
