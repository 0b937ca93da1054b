import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Logger } from 'pino'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { OutboxRelay, recordBytes, type RelayOptions } from '../../src/stream/relay.js'
import { DEAD_LETTER_AFTER } from '../../src/stream/eventlog/dead-letters.js'
import { LogUnavailable, RecordRejected, type EventLog, type Subscription } from '../../src/stream/eventlog/event-log.js'
import { PipelineHealth } from '../../src/stream/health.js'
import { plainProtobufCodec } from '../../src/stream/decision-codec.js'
import { openStateDb, type StateDb } from '../../src/stores/state-db.js'
import { Outbox } from '../../src/stores/outbox.js'
import { putTransactionOp, transactionKey } from '../../src/stores/transactions.js'
import { writeBatchSync } from '../../src/stores/rocks.js'
import { type TransactionRecord, encodeEvent } from '../../src/domain/records/decisions.js'
import type { LogRecord } from '../../src/domain/records/log-record.js'

const TOPIC = 'decisions'
const DLQ = 'dead-letters'
const ORIGIN = 'origin_a'
const T0 = Date.parse('2026-03-01T12:00:00Z')

/** What one append call carried and how the fake log answered it. */
interface Append { topic: string, seqs: number[], records: LogRecord[], result: 'ok' | 'rejected' | 'unavailable' | 'pending' }
/** Decides one append: undefined acknowledges it, an Error is thrown, a promise is awaited first (never resolving = never acknowledged). */
type Behaviour = (topic: string, seqs: number[], call: number) => Error | Promise<void> | undefined

/** An event log that keeps appended records in arrays and fails on demand. */
class FakeLog implements EventLog {
  readonly kind = 'embedded' as const
  readonly appends: Append[] = []
  readonly topics = new Map<string, LogRecord[]>()
  constructor (public behaviour: Behaviour = () => undefined) {}

  async ensureTopics (): Promise<void> {}
  async subscribe (): Promise<Subscription> { throw new Error('not used by the relay') }
  async endOffsets (): Promise<number[]> { return [0] }
  async close (): Promise<void> {}

  async append (topic: string, records: LogRecord[]): Promise<void> {
    const seqs = records.map(r => Number(r.headers!.seq))
    const call: Append = { topic, seqs, records, result: 'pending' }
    const decided = this.behaviour(topic, seqs, this.appends.length)
    this.appends.push(call)
    if (decided instanceof Error) {
      call.result = decided instanceof RecordRejected ? 'rejected' : 'unavailable'
      throw decided
    }
    if (decided !== undefined) await decided
    call.result = 'ok'
    this.topics.set(topic, [...(this.topics.get(topic) ?? []), ...records])
  }

  /** Sequence numbers of each append to `topic`, with how it ended. */
  calls (topic = TOPIC): Array<[number[], Append['result']]> {
    return this.appends.filter(a => a.topic === topic).map(a => [a.seqs, a.result])
  }

  published (topic = TOPIC): LogRecord[] {
    return this.topics.get(topic) ?? []
  }
}

/** A PipelineHealth on a fake clock that also keeps each failing() call. */
class RecordingHealth extends PipelineHealth {
  now = 1_000
  readonly failingCalls: string[] = []
  constructor () {
    super(() => this.now)
  }

  override failing (component: string, err: unknown): void {
    this.failingCalls.push(`${component}: ${(err as Error).message}`)
    super.failing(component, err)
  }
}

/** A logger that keeps what was logged, with the bindings of the child logger it was logged through. */
function fakeLogger (bindings: Record<string, unknown> = {}, lines: Array<{ level: string, msg: string, obj: Record<string, unknown> }> = []): { logger: Logger, lines: typeof lines } {
  const at = (level: string) => (obj: Record<string, unknown>, msg: string) => { lines.push({ level, msg, obj: { ...bindings, ...obj } }) }
  const logger = { warn: at('warn'), error: at('error'), info: at('info'), debug: at('debug'), child: (more: Record<string, unknown>) => fakeLogger({ ...bindings, ...more }, lines).logger }
  return { logger: logger as unknown as Logger, lines }
}

function transaction (i: number): TransactionRecord {
  const traceId = `trc_${String(i).padStart(6, '0')}`
  return {
    trace_id: traceId,
    tenant_id: 'ten_relay',
    livemode: false,
    created_ms: T0 + i,
    request: { event: 'payment', amount: 10, currency: 'EUR', user_id: 'u1' },
    decision: { score: 0.1, risk_level: 'low', action: 'approve', signals: [], rules: [], trace_id: traceId, latency_ms: 2 },
    ruleset_version: 'rsv_1',
    model_version: 'm_1',
    features: {},
    base_action: 'approve',
    override_gate: null,
    rule_errors: [],
    rollout_buckets: {},
    origin_id: ORIGIN,
    origin_seq: i
  }
}

/** The record the relay should publish for entry `seq` holding transaction `i`. */
const expectedRecord = (seq: number, i: number): LogRecord => ({
  key: `ten_relay:${transaction(i).trace_id}`,
  value: Buffer.from(encodeEvent(transaction(i))),
  headers: { origin: ORIGIN, seq: String(seq), tenant_id: 'ten_relay', trace_id: transaction(i).trace_id },
  timestamp: T0 + i
})

const UNDECODABLE = Buffer.from('not protobuf')
const UNDECODABLE_REASON = 'illegal tag: field no 13 wire type 6'

/**
 * Polls `cond` until it holds, for at most `timeoutMs` of real time. Under fake timers each poll also moves
 * the fake clock on, which is what runs the relay's retry pauses.
 */
async function waitFor (what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 1500): Promise<void> {
  const deadline = performance.now() + timeoutMs
  while (!(await cond())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    if (vi.isFakeTimers()) {
      await new Promise(resolve => setImmediate(resolve))
      await vi.advanceTimersByTimeAsync(25)
    } else {
      await new Promise(resolve => setTimeout(resolve, 5))
    }
  }
}

/** A promise the test resolves when it chooses: an append that waits for it is acknowledged then. */
function gate (): { promise: Promise<void>, open (): void } {
  let open!: () => void
  const promise = new Promise<void>(resolve => { open = resolve })
  return { promise, open }
}

interface Rig {
  state: StateDb
  outbox: Outbox
  log: FakeLog
  health: RecordingHealth
  lines: ReturnType<typeof fakeLogger>['lines']
  relay: OutboxRelay
  /** Writes entries (transaction i, or raw bytes) to the outbox in one batch; returns their sequence numbers. */
  enqueue (...values: Array<number | Uint8Array>): number[]
  /** Sequence numbers still in the outbox. */
  remaining (): Promise<number[]>
}

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  vi.useRealTimers()
  for (const c of cleanups.splice(0).reverse()) await c()
})

async function rig (options: Partial<RelayOptions> = {}, behaviour?: Behaviour): Promise<Rig> {
  const dir = await mkdtemp(path.join(tmpdir(), 'relay-'))
  const state = await openStateDb(path.join(dir, 'state'))
  cleanups.push(async () => { await state.close(); await rm(dir, { recursive: true, force: true }) })
  const outbox = await Outbox.open(state)
  const log = new FakeLog(behaviour)
  const health = new RecordingHealth()
  const { logger, lines } = fakeLogger()
  const relay = new OutboxRelay(state, outbox, log, plainProtobufCodec, {
    topic: TOPIC, deadLetterTopic: DLQ, originId: ORIGIN, lingerMs: 0, maxBatch: 100, maxBatchBytes: 1_000_000, ...options
  }, health, logger)
  cleanups.push(() => relay.stop(50))
  return {
    state,
    outbox,
    log,
    health,
    lines,
    relay,
    enqueue (...values) {
      const seqs: number[] = []
      const ops = values.flatMap(v => {
        const seq = outbox.nextSeq()
        seqs.push(seq)
        return outbox.appendOps(seq, typeof v === 'number' ? encodeEvent(transaction(v)) : v)
      })
      writeBatchSync(state.db, ops, false)
      return seqs
    },
    remaining: async () => (await outbox.read(1000)).map(e => e.seq)
  }
}

describe('OutboxRelay', () => {
  it('publishes entries in sequence order as key, value, headers and event time, and removes them only once acknowledged', async () => {
    const ack = gate()
    const r = await rig({}, (_topic, _seqs, call) => call === 0 ? ack.promise : undefined)
    expect(r.enqueue(1, 2, 3)).toEqual([1, 2, 3])
    r.relay.start()
    await waitFor('the first append', () => r.log.appends.length === 1)
    expect(r.log.appends[0]!.records).toEqual([expectedRecord(1, 1), expectedRecord(2, 2), expectedRecord(3, 3)])
    // Not acknowledged yet: everything is still in the outbox.
    expect(await r.remaining()).toEqual([1, 2, 3])
    ack.open()
    await waitFor('the outbox to empty', async () => (await r.remaining()).length === 0)
    expect(r.log.calls()).toEqual([[[1, 2, 3], 'ok']])

    // Later writes are published when the writer notifies the relay.
    expect(r.enqueue(4, 5)).toEqual([4, 5])
    r.relay.notify()
    r.relay.notify()
    expect(r.relay.pending).toBe(2)
    await waitFor('entries 4 and 5', async () => r.log.published().length === 5 && (await r.remaining()).length === 0)
    expect(r.log.published().map(x => x.headers!.seq)).toEqual(['1', '2', '3', '4', '5'])
    expect(r.log.published()[4]).toEqual(expectedRecord(5, 5))
    await waitFor('the backlog to clear', () => r.relay.pending === 0)
    expect(r.health.report()).toEqual({ status: 'ok', failing: [], dead_lettered: {}, in_progress: {} })
  })

  it('caps each batch at maxBatch entries', async () => {
    const r = await rig({ maxBatch: 2 })
    r.enqueue(1, 2, 3, 4, 5)
    r.relay.start()
    await waitFor('the outbox to empty', async () => (await r.remaining()).length === 0)
    expect(r.log.calls()).toEqual([[[1, 2], 'ok'], [[3, 4], 'ok'], [[5], 'ok']])
  })

  it('caps each batch at maxBatchBytes as recordBytes counts them', async () => {
    const size = recordBytes(expectedRecord(1, 1))
    expect(size).toBe(70 + Buffer.byteLength(expectedRecord(1, 1).key) + encodeEvent(transaction(1)).byteLength +
      'origin'.length + ORIGIN.length + 8 + 'seq'.length + 1 + 8 + 'tenant_id'.length + 'ten_relay'.length + 8 + 'trace_id'.length + transaction(1).trace_id.length + 8)
    const r = await rig({ maxBatchBytes: 3 * size - 1 })
    r.enqueue(1, 2, 3, 4, 5)
    r.relay.start()
    await waitFor('the outbox to empty', async () => (await r.remaining()).length === 0)
    expect(r.log.calls()).toEqual([[[1, 2], 'ok'], [[3, 4], 'ok'], [[5], 'ok']])
    for (const a of r.log.appends) expect(a.records.reduce((n, x) => n + recordBytes(x), 0)).toBeLessThanOrEqual(3 * size - 1)
  })

  it('still publishes an entry larger than maxBatchBytes, alone', async () => {
    const r = await rig({ maxBatchBytes: 10 })
    r.enqueue(1, 2, 3)
    r.relay.start()
    await waitFor('the outbox to empty', async () => (await r.remaining()).length === 0)
    expect(r.log.calls()).toEqual([[[1], 'ok'], [[2], 'ok'], [[3], 'ok']])
  })

  it('keeps the entries and retries the whole batch while the log is unavailable; health is failing, then recovered', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const ack = gate()
    const r = await rig({}, (_topic, _seqs, call) => {
      if (call < 2) { r.health.now += 1_000; return new LogUnavailable(TOPIC, new Error('broker down')) }
      return call === 2 ? ack.promise : undefined
    })
    r.enqueue(1, 2)
    r.relay.start()
    await waitFor('the third attempt', () => r.log.appends.length === 3)
    expect(r.log.calls()).toEqual([[[1, 2], 'unavailable'], [[1, 2], 'unavailable'], [[1, 2], 'pending']])
    expect(await r.remaining()).toEqual([1, 2])
    // Failing since the first failure, two attempts so far.
    expect(r.health.report()).toEqual({
      status: 'degraded',
      failing: [{ component: 'outbox-relay', since_ms: 2_000, error: `${TOPIC}: broker down`, attempts: 2 }],
      dead_lettered: {},
      in_progress: {}
    })
    expect(r.lines.filter(l => l.level === 'warn').map(l => l.obj.failures)).toEqual([1, 2])
    ack.open()
    await waitFor('the outbox to empty', async () => (await r.remaining()).length === 0)
    expect(r.health.report()).toEqual({ status: 'ok', failing: [], dead_lettered: {}, in_progress: {} })
    expect(r.log.published().map(x => x.headers!.seq)).toEqual(['1', '2'])
    expect(r.log.published(DLQ)).toEqual([])
  })

  it('retries an undecodable entry alone, dead-letters it after DEAD_LETTER_AFTER tries with its reason, counts it, and publishes the later entries', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const r = await rig()
    expect(r.enqueue(1, UNDECODABLE, 3, 4)).toEqual([1, 2, 3, 4])
    r.relay.start()
    await waitFor('the outbox to empty', async () => (await r.remaining()).length === 0)
    // The batch stops before the bad entry; the bad entry never reaches the topic; the rest follows.
    expect(r.log.calls()).toEqual([[[1], 'ok'], [[3, 4], 'ok']])
    expect(r.health.failingCalls).toEqual(Array.from({ length: DEAD_LETTER_AFTER - 1 }, () => `outbox-relay: ${UNDECODABLE_REASON}`))
    expect(r.log.calls(DLQ)).toEqual([[[2], 'ok']])
    const [dead] = r.log.published(DLQ)
    expect(dead!.key).toBe(`${ORIGIN}:2`)
    expect(Buffer.from(dead!.value)).toEqual(UNDECODABLE)
    expect(dead!.headers).toEqual({ source: 'outbox', origin: ORIGIN, seq: '2', target_topic: TOPIC, reason: UNDECODABLE_REASON })
    expect(r.health.report()).toEqual({ status: 'ok', failing: [], dead_lettered: { 'outbox-relay': 1 }, in_progress: {} })
    expect(r.lines.filter(l => l.level === 'error').map(l => [l.msg, l.obj.seq, l.obj.component])).toEqual([['entry dead-lettered', 2, 'outbox-relay']])
  })

  it('publishes an entry that refers to its stored transaction with the transaction\'s bytes; a reference to nothing is dead-lettered', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const r = await rig()
    const stored = putTransactionOp(transaction(2), encodeEvent(transaction(2)))
    const missing = transactionKey({ tenant: 'ten_relay', mode: 'test' }, 'trc_none')
    const seqs = [r.outbox.nextSeq(), r.outbox.nextSeq()]
    writeBatchSync(r.state.db, [stored, ...r.outbox.appendReferenceOps(seqs[0]!, stored.key), ...r.outbox.appendReferenceOps(seqs[1]!, missing)], false)
    r.relay.start()
    await waitFor('the outbox to empty', async () => (await r.remaining()).length === 0)
    expect(r.log.published(TOPIC).map(p => Buffer.from(p.value))).toEqual([Buffer.from(encodeEvent(transaction(2)))])
    expect(r.log.calls(DLQ)).toEqual([[[2], 'ok']])
  })

  it('narrows a RecordRejected batch of several to its head entry alone, then resumes whole batches', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const r = await rig({}, (topic, _seqs, call) => topic === TOPIC && call === 0 ? new RecordRejected('batch too large') : undefined)
    r.enqueue(1, 2, 3)
    r.relay.start()
    await waitFor('the outbox to empty', async () => (await r.remaining()).length === 0)
    expect(r.log.calls()).toEqual([[[1, 2, 3], 'rejected'], [[1], 'ok'], [[2, 3], 'ok']])
    expect(r.log.published().map(x => x.headers!.seq)).toEqual(['1', '2', '3'])
    expect(r.log.appends.filter(a => a.topic === DLQ)).toEqual([])
    expect(r.health.report()).toEqual({ status: 'ok', failing: [], dead_lettered: {}, in_progress: {} })
  })

  it('dead-letters a head entry the log keeps rejecting: the batch try counts as its first of DEAD_LETTER_AFTER', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const r = await rig({}, (topic, seqs) => topic === TOPIC && seqs.includes(1) ? new RecordRejected('record too large') : undefined)
    r.enqueue(1, 2, 3)
    r.relay.start()
    await waitFor('the outbox to empty', async () => (await r.remaining()).length === 0)
    expect(r.log.calls()).toEqual([[[1, 2, 3], 'rejected'], [[1], 'rejected'], [[1], 'rejected'], [[2, 3], 'ok']])
    expect(r.log.calls().filter(([seqs]) => seqs.includes(1))).toHaveLength(DEAD_LETTER_AFTER)
    expect(r.log.published(DLQ).map(d => [d.key, d.headers!.reason, d.headers!.seq])).toEqual([[`${ORIGIN}:1`, 'record too large', '1']])
    expect(Buffer.from(r.log.published(DLQ)[0]!.value)).toEqual(Buffer.from(encodeEvent(transaction(1))))
    expect(r.health.report().dead_lettered).toEqual({ 'outbox-relay': 1 })
  })

  it('lingers lingerMs before each batch that follows one which took everything: decisions notified meanwhile go out together', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const ack = gate()
    const r = await rig({ lingerMs: 1000 }, (_topic, _seqs, call) => call === 0 ? ack.promise : undefined)
    const recorded = (i: number) => {
      r.enqueue(i)
      r.relay.notify([{ ...transaction(i), origin_seq: i }])
    }
    const turns = async (n: number) => { for (let k = 0; k < n; k++) await new Promise(resolve => setImmediate(resolve)) }
    r.relay.start()
    await turns(5) // the first pass finds the outbox empty
    recorded(1)
    await turns(5)
    expect(r.log.appends).toHaveLength(0)
    await vi.advanceTimersByTimeAsync(1000)
    await waitFor('the first append', () => r.log.appends.length === 1)
    recorded(2) // while the first append is out
    ack.open()
    await turns(10)
    expect(r.log.calls()).toEqual([[[1], 'ok']])
    recorded(3)
    await vi.advanceTimersByTimeAsync(1000)
    await waitFor('the second append', () => r.log.appends.length === 2)
    expect(r.log.calls()).toEqual([[[1], 'ok'], [[2, 3], 'ok']])
  })

  it('publishes entries numbered earlier but written while a read was under way, once that read found later ones', async () => {
    const r = await rig()
    // A batch's entries are numbered when prepared and written when the batch commits, after later ones.
    const early = [r.outbox.nextSeq(), r.outbox.nextSeq()]
    const written = (seqs: number[]) => {
      writeBatchSync(r.state.db, seqs.flatMap(seq => r.outbox.appendOps(seq, encodeEvent(transaction(seq)))), false)
      r.relay.notify(seqs.map(seq => ({ ...transaction(seq), origin_seq: seq })))
    }
    written([r.outbox.nextSeq(), r.outbox.nextSeq()])
    const read = r.outbox.read.bind(r.outbox)
    let reads = 0
    vi.spyOn(r.outbox, 'read').mockImplementation(async (max, after) => {
      const found = await read(max, after)
      if (reads++ === 0) written(early) // after the first read saw the outbox, before it returns
      return found
    })
    r.relay.start()
    await waitFor('the outbox to empty', async () => (await read(1000)).length === 0)
    expect(r.log.calls()).toEqual([[[3, 4], 'ok'], [[1, 2], 'ok']])
  })

  it('publishes late entries more than one batch holds, batch after batch, and again after a failed append', async () => {
    let failOnce = true
    const r = await rig({ maxBatch: 2 }, (_topic, seqs) => {
      if (seqs[0] === 1 && failOnce) { failOnce = false; return new LogUnavailable(TOPIC, new Error('down')) }
      return undefined
    })
    const written = (seqs: number[]) => {
      writeBatchSync(r.state.db, seqs.flatMap(seq => r.outbox.appendOps(seq, encodeEvent(transaction(seq)))), false)
      r.relay.notify(seqs.map(seq => ({ ...transaction(seq), origin_seq: seq })))
    }
    const early = [1, 2, 3, 4, 5].map(() => r.outbox.nextSeq())
    written([r.outbox.nextSeq(), r.outbox.nextSeq()])
    r.relay.start()
    await waitFor('the later entries published', () => r.log.published().length === 2)
    written(early)
    await waitFor('the outbox to empty', async () => (await r.remaining()).length === 0)
    expect(r.log.calls()).toEqual([[[6, 7], 'ok'], [[1, 2], 'unavailable'], [[1, 2], 'ok'], [[3, 4], 'ok'], [[5], 'ok']])
  })

  it('stop() publishes what the outbox holds before it returns', async () => {
    const r = await rig()
    r.relay.start()
    // Whether or not the relay's first pass has already found the outbox empty, these are published before stop returns.
    r.enqueue(1, 2)
    r.relay.notify()
    await r.relay.stop(1000)
    expect(await r.remaining()).toEqual([])
    expect(r.log.published().map(x => x.headers!.seq)).toEqual(['1', '2'])
    expect(r.lines.filter(l => l.level === 'warn')).toEqual([])
  })

  it('stop() with a log that never acknowledges returns within its timeout and leaves the entries in the outbox for the next relay', async () => {
    const r = await rig({}, () => new Promise<void>(() => {}))
    r.enqueue(1, 2)
    r.relay.start()
    await waitFor('the append that never ends', () => r.log.appends.length === 1)
    const started = performance.now()
    await r.relay.stop(100)
    const took = performance.now() - started
    expect(took).toBeGreaterThanOrEqual(90)
    expect(took).toBeLessThan(1000)
    expect(await r.remaining()).toEqual([1, 2])
    expect(r.lines.filter(l => l.level === 'warn').map(l => [l.msg, l.obj.component])).toEqual([['stopped before the outbox was published; the entries stay in it', 'outbox-relay']])

    // Nothing is lost: the next relay over the same store publishes them.
    const log = new FakeLog()
    const next = new OutboxRelay(r.state, await Outbox.open(r.state), log, plainProtobufCodec, {
      topic: TOPIC, deadLetterTopic: DLQ, originId: ORIGIN, lingerMs: 0, maxBatch: 100, maxBatchBytes: 1_000_000
    }, new PipelineHealth(), fakeLogger().logger)
    cleanups.push(() => next.stop(50))
    next.start()
    await waitFor('the next relay to publish', async () => (await r.remaining()).length === 0)
    expect(log.calls()).toEqual([[[1, 2], 'ok']])
  })
})
