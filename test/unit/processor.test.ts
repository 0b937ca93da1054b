import path from 'node:path'
import { Writable } from 'node:stream'
import pino from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { stateKey } from '../../src/stores/keys.js'
import { openStateDb, type StateDb } from '../../src/stores/state-db.js'
import { NotConfirmed } from '../../src/stream/confirmation.js'
import { EmbeddedEventLog } from '../../src/stream/eventlog/embedded.js'
import type { ConsumedRecord, EventLog } from '../../src/stream/eventlog/event-log.js'
import { PipelineHealth } from '../../src/stream/health.js'
import { ProcessorRunner, type Processor, type ProcessorRuntime } from '../../src/stream/processor.js'
import { repartitionStage, repeatedCopiesDropped, sourceTopic, tenantOfKey } from '../../src/stream/repartition.js'
import { eventually, tempDir } from '../support/app.js'
import { readTopic } from '../support/stream.js'
import { landsButReportsFailure } from '../support/failing-log.js'
import type { LogRecord } from '../../src/domain/records/log-record.js'

const IN = 'in'
const OUT = 'out'
const DEAD = 'dead-letters'
const counterKey = stateKey('T', 'count')

interface Rig { runtime: ProcessorRuntime, inner: EmbeddedEventLog, state: StateDb, health: PipelineHealth, failAppends: Map<string, number> }
const opened: Array<() => Promise<void>> = []
afterEach(async () => { for (const close of opened.splice(0).reverse()) await close() })

/** An embedded log and state store; `failAppends` makes the next n appends to a topic land but report a failure. */
async function rig (): Promise<Rig> {
  const dir = tempDir()
  const inner = await EmbeddedEventLog.open(path.join(dir, 'log'))
  await inner.ensureTopics([{ name: IN, partitions: 1 }, { name: OUT, partitions: 1 }, { name: DEAD, partitions: 1 }])
  const state = await openStateDb(path.join(dir, 'state'))
  const failAppends = new Map<string, number>()
  const log = landsButReportsFailure(inner, topic => {
    const left = failAppends.get(topic) ?? 0
    failAppends.set(topic, left - 1)
    return left > 0
  })
  const health = new PipelineHealth()
  opened.push(async () => { await inner.close(); await state.close() })
  return { runtime: { state, log, health, logger: pino({ level: 'silent' }), deadLetterTopic: DEAD, retryMs: 1 }, inner, state, health, failAppends }
}

const record = (value: string): LogRecord => ({ key: value, value: Buffer.from(value) })
const text = (rs: ConsumedRecord[]) => rs.map(r => r.value.toString())
const count = async (state: StateDb) => Number((await state.get(counterKey))?.toString() ?? 0)

/** Counts the records it processed in its own state and emits one output per record. */
function counter (overrides: Partial<Processor<string>> = {}): Processor<string> & { calls: string[] } {
  const calls: string[] = []
  return {
    calls,
    group: 'counter',
    topics: [IN],
    checkpoint: ['counter'],
    decode: r => r.value.toString(),
    async process (value, _record, batch) {
      calls.push(value)
      if (value.startsWith('poison')) throw new Error(`cannot process ${value}`)
      const n = Number((await batch.writes.get(counterKey))?.toString() ?? 0)
      batch.writes.put(counterKey, Buffer.from(String(n + 1)))
      batch.emit(OUT, record(`out-${value}`))
    },
    ...overrides
  }
}

describe('the processor runner', () => {
  it('commits state with the checkpoint: a batch delivered again is not processed again, its outputs are appended again as they were', async () => {
    const r = await rig()
    await r.inner.append(IN, ['a', 'b', 'c'].map(record))
    r.failAppends.set(OUT, 1)
    const p = counter()
    const runner = new ProcessorRunner(r.runtime, p)
    await runner.start()
    await runner.catchUp(5000)
    await eventually(async () => (await readTopic(r.inner, OUT)).length >= 6 || undefined, 5000, 'outputs appended twice')
    await runner.stop()
    expect(p.calls).toEqual(['a', 'b', 'c'])
    expect(await count(r.state)).toBe(3)
    expect(text(await readTopic(r.inner, OUT))).toEqual(['out-a', 'out-b', 'out-c', 'out-a', 'out-b', 'out-c'])
    expect(r.health.report().status).toBe('ok')
  })

  it('retries a failing batch record by record and dead-letters the record that fails alone three times; the rest go on', async () => {
    const r = await rig()
    await r.inner.append(IN, ['a', 'poison-1', 'b'].map(record))
    const p = counter()
    const lines: Array<Record<string, unknown>> = []
    const logger = pino({ level: 'warn' }, new Writable({ write (chunk, _enc, done) { lines.push(JSON.parse(String(chunk)) as Record<string, unknown>); done() } }))
    const runner = new ProcessorRunner({ ...r.runtime, logger }, p)
    await runner.start()
    await runner.catchUp(5000)
    await runner.stop()
    expect(p.calls.filter(c => c === 'poison-1')).toHaveLength(4) // once in its batch, three times alone
    // Logged through the runner's child logger: bound to the component and its group, no prefix in the message.
    expect(lines.map(l => [l.component, l.group, l.msg])).toEqual([
      ['processor', 'counter', 'batch failed, retrying its records one by one'],
      ['processor', 'counter', 'record dead-lettered']
    ])
    expect(await count(r.state)).toBe(2)
    expect(text(await readTopic(r.inner, OUT))).toEqual(['out-a', 'out-b'])
    const [letter, ...more] = await readTopic(r.inner, DEAD)
    expect(more).toHaveLength(0)
    expect(letter!.value.toString()).toBe('poison-1')
    expect(letter!.headers).toMatchObject({ source_topic: IN, source_partition: '0', source_offset: '1', consumer_group: 'counter', reason: 'cannot process poison-1' })
    expect(r.health.report().dead_lettered).toEqual({ 'consumer:counter': 1 })

    // A restart continues after the dead-lettered record: nothing is processed again.
    const again = counter()
    const restarted = new ProcessorRunner(r.runtime, again)
    await r.inner.append(IN, [record('c')])
    await restarted.start()
    await restarted.catchUp(5000)
    await restarted.stop()
    expect(again.calls).toEqual(['c'])
  })

  it('retries a batch whole while a view or the log is unavailable, and never dead-letters it for that', async () => {
    const r = await rig()
    await r.inner.append(IN, ['a', 'b'].map(record))
    let unavailable = 5
    const p = counter({ beforeBatch: async () => { if (unavailable-- > 0) throw new NotConfirmed('view not caught up') } })
    const runner = new ProcessorRunner(r.runtime, p)
    await runner.start()
    await eventually(() => r.health.report().status === 'degraded' || undefined, 5000, 'degraded')
    await runner.catchUp(10000)
    await eventually(() => r.health.report().status === 'ok' || undefined, 5000, 'ok again')
    await runner.stop()
    expect(p.calls).toEqual(['a', 'b'])
    expect((await r.inner.endOffsets(DEAD))[0]).toBe(0)
  })

  it('keeps no state without a checkpoint: a write fails the record', async () => {
    const r = await rig()
    await r.inner.append(IN, [record('a')])
    const runner = new ProcessorRunner(r.runtime, counter({ checkpoint: undefined }))
    await runner.start()
    await runner.catchUp(5000)
    await runner.stop()
    expect((await readTopic(r.inner, DEAD))[0]!.headers.reason).toMatch(/keeps no state/)
  })

  it('runs a punctuation between batches; outputs of one whose append failed go out with the next', async () => {
    const r = await rig()
    r.failAppends.set(OUT, 1)
    let n = 0
    const p = counter({
      punctuation: {
        everyMs: 20,
        async run ({ writes, emit }) {
          if (n >= 2) return
          n++
          writes.put(stateKey('T', 'tick'), Buffer.from(String(n)))
          emit(OUT, record(`tick-${n}`))
        }
      }
    })
    const runner = new ProcessorRunner(r.runtime, p)
    await runner.start()
    await eventually(async () => (await r.inner.endOffsets(OUT))[0]! >= 3 || undefined, 5000, 'ticks')
    await runner.stop()
    // tick-1 landed but was reported failed: appended again by the next punctuation, before tick-2.
    expect(text(await readTopic(r.inner, OUT))).toEqual(['tick-1', 'tick-1', 'tick-2'])
    expect((await r.state.get(stateKey('T', 'tick')))?.toString()).toBe('2')
  })
})

describe('a repartition stage', () => {
  const BY_TENANT = 'by-tenant'

  it('puts every record of a tenant in one partition, and a copy appended again after a failed append is processed once', async () => {
    const r = await rig()
    await r.inner.ensureTopics([{ name: BY_TENANT, partitions: 4 }])
    const inputs = ['t1:a', 't2:b', 't1:c', 't3:d', 't2:e', 't1:f']
    await r.inner.append(IN, inputs.map(record))
    // The stage's append lands but reports a failure: it appends the same copies again.
    r.failAppends.set(BY_TENANT, 1)
    const stage = new ProcessorRunner(r.runtime, repartitionStage('stage', [IN], BY_TENANT, rec => tenantOfKey(rec.key)))
    const seen: string[] = []
    const consumer = new ProcessorRunner(r.runtime, counter({
      group: 'owner',
      topics: [BY_TENANT],
      // What byTenant gives a processor fed through the stage.
      middleware: [repeatedCopiesDropped('owner')],
      async process (value, rec) {
        seen.push(value)
        expect(sourceTopic(rec)).toBe(IN)
      }
    }))
    await stage.start()
    await consumer.start()
    await eventually(async () => (await r.inner.endOffsets(BY_TENANT)).reduce((a, b) => a + b, 0) >= inputs.length * 2 || undefined, 5000, 'copies appended twice')
    await consumer.catchUp()
    await stage.stop()
    await consumer.stop()

    const copies = await readTopic(r.inner, BY_TENANT)
    expect(copies.length).toBe(inputs.length * 2)
    for (const tenant of ['t1', 't2', 't3']) {
      expect(new Set(copies.filter(c => c.key.startsWith(`${tenant}:`)).map(c => c.partition)).size).toBe(1)
    }
    expect(seen.sort()).toEqual([...inputs].sort())
  })
})
