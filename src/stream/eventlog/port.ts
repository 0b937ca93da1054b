import type { MessagePort } from 'node:worker_threads'
import type { Worker } from 'node:worker_threads'
import type { LogRecord } from '../../domain/records/log-record.js'
import { LogUnavailable, RecordRejected, type ConsumedRecord, type EventLog, type SubscribeOptions, type Subscription, type TopicSpec } from './event-log.js'

/**
 * The event log of the main thread, used from a worker thread (the one-process service runs its topologies
 * in a worker): every call and every delivered batch crosses the thread boundary as a message. Delivery
 * keeps its contract: a batch is acknowledged once the worker's handler resolved, and delivered again when
 * it threw.
 */
type Endpoint = Pick<MessagePort, 'postMessage' | 'on' | 'off'>

type Request =
  | { op: 'call', id: number, method: 'append' | 'endOffsets' | 'ensureTopics' | 'maxAppendBytes', args: unknown[] }
  | { op: 'subscribe', id: number, sid: number, group: string, topics: string[], fromBeginning?: boolean }
  | { op: 'unsubscribe', id: number, sid: number }
  | { op: 'batchDone', bid: number, error?: WireError }
type Reply =
  | { op: 'result', id: number, value?: unknown, error?: WireError }
  | { op: 'batch', sid: number, bid: number, records: ConsumedRecord[] }

interface WireError { name: string, message: string }
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never

const REQUESTS = new Set<string>(['call', 'subscribe', 'unsubscribe', 'batchDone'])

const toWire = (err: unknown): WireError => ({ name: err instanceof Error ? err.constructor.name : 'Error', message: err instanceof Error ? err.message : String(err) })

function fromWire (e: WireError, topic = ''): Error {
  if (e.name === 'RecordRejected') return new RecordRejected(e.message)
  if (e.name === 'LogUnavailable') return new LogUnavailable(topic, new Error(e.message))
  const err = new Error(e.message)
  err.name = e.name
  return err
}

/** A value of its own (a Buffer may view a larger pooled buffer, which a message would copy whole). */
const own = (value: Uint8Array): Uint8Array => new Uint8Array(value)
const asBuffer = (value: Uint8Array): Buffer => Buffer.from(value.buffer, value.byteOffset, value.byteLength)

/** Serves `log` to the worker at the other end of `port`; returns a function that stops serving. */
export function servePort (log: EventLog, port: Endpoint | Worker): () => Promise<void> {
  const subscriptions = new Map<number, Subscription>()
  const batches = new Map<number, { resolve(): void, reject(err: Error): void }>()
  let nextBatch = 0
  const reply = (r: Reply) => port.postMessage(r)
  const onMessage = async (message: { op?: string }) => {
    // The same port carries the worker's own messages (health, ready, stopped): those are not for the log.
    if (!REQUESTS.has(message.op ?? '')) return
    const m = message as Request
    if (m.op === 'batchDone') {
      const b = batches.get(m.bid)
      batches.delete(m.bid)
      if (m.error === undefined) b?.resolve()
      else b?.reject(fromWire(m.error))
      return
    }
    try {
      if (m.op === 'call') {
        const args = m.method === 'append' ? [m.args[0], (m.args[1] as LogRecord[]).map(r => ({ ...r, value: asBuffer(r.value) }))] : m.args
        const value = await (log[m.method] as (...a: unknown[]) => Promise<unknown>)?.apply(log, args)
        reply({ op: 'result', id: m.id, value })
      } else if (m.op === 'subscribe') {
        const sid = m.sid
        subscriptions.set(sid, await log.subscribe({
          group: m.group,
          topics: m.topics,
          fromBeginning: m.fromBeginning,
          onBatch: records => new Promise<void>((resolve, reject) => {
            const bid = nextBatch++
            batches.set(bid, { resolve, reject })
            reply({ op: 'batch', sid, bid, records: records.map(r => ({ ...r, value: own(r.value) as Buffer })) })
          })
        }))
        reply({ op: 'result', id: m.id })
      } else if (m.op === 'unsubscribe') {
        const s = subscriptions.get(m.sid)
        subscriptions.delete(m.sid)
        await s?.close()
        reply({ op: 'result', id: m.id })
      }
    } catch (err) {
      reply({ op: 'result', id: m.id, error: toWire(err) })
    }
  }
  port.on('message', onMessage)
  return async () => {
    port.off('message', onMessage)
    for (const b of batches.values()) b.reject(new Error('the worker is gone'))
    await Promise.all([...subscriptions.values()].map(s => s.close()))
    subscriptions.clear()
  }
}

/** The worker's side: an EventLog whose calls are answered by `servePort` in the main thread. */
export class PortEventLog implements EventLog {
  private nextId = 0
  private nextSid = 0
  private readonly calls = new Map<number, { resolve(value: unknown): void, reject(err: Error): void, topic?: string }>()
  private readonly handlers = new Map<number, SubscribeOptions['onBatch']>()

  constructor (readonly kind: EventLog['kind'], private readonly port: Endpoint) {
    port.on('message', (m: Reply | { op?: string }) => { void this.receive(m as Reply) })
  }

  private async receive (m: Reply): Promise<void> {
    if (m.op === 'result') {
      const call = this.calls.get(m.id)
      this.calls.delete(m.id)
      if (m.error === undefined) call?.resolve(m.value)
      else call?.reject(fromWire(m.error, call.topic))
      return
    }
    if (m.op !== 'batch') return // the worker host's own messages share the port
    const handler = this.handlers.get(m.sid)
    try {
      if (handler === undefined) throw new Error('subscription closed')
      await handler(m.records.map(r => ({ ...r, value: asBuffer(r.value) })))
      this.port.postMessage({ op: 'batchDone', bid: m.bid } satisfies Request)
    } catch (err) {
      this.port.postMessage({ op: 'batchDone', bid: m.bid, error: toWire(err) } satisfies Request)
    }
  }

  private request<T> (m: WithoutId<Extract<Request, { id: number }>>, topic?: string): Promise<T> {
    const id = this.nextId++
    return new Promise<T>((resolve, reject) => {
      this.calls.set(id, { resolve: resolve as (v: unknown) => void, reject, topic })
      this.port.postMessage({ ...m, id })
    })
  }

  ensureTopics (specs: TopicSpec[]): Promise<void> { return this.request({ op: 'call', method: 'ensureTopics', args: [specs] }) }
  endOffsets (topic: string): Promise<number[]> { return this.request({ op: 'call', method: 'endOffsets', args: [topic] }) }
  maxAppendBytes (topic: string): Promise<number | undefined> { return this.request({ op: 'call', method: 'maxAppendBytes', args: [topic] }) }
  append (topic: string, records: LogRecord[]): Promise<void> {
    return this.request({ op: 'call', method: 'append', args: [topic, records.map(r => ({ ...r, value: own(r.value) }))] }, topic)
  }

  async subscribe (options: SubscribeOptions): Promise<Subscription> {
    const sid = this.nextSid++
    this.handlers.set(sid, options.onBatch)
    await this.request({ op: 'subscribe', sid, group: options.group, topics: options.topics, fromBeginning: options.fromBeginning })
    return {
      close: async () => {
        await this.request({ op: 'unsubscribe', sid })
        this.handlers.delete(sid)
      }
    }
  }

  /** The main thread's log stays open: it belongs to the main thread. */
  async close (): Promise<void> {}
}
