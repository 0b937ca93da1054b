import path from 'node:path'
import pino from 'pino'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node'
import { SpanStatusCode } from '@opentelemetry/api'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { stateKey } from '../../src/stores/keys.js'
import { openStateDb, type StateDb } from '../../src/stores/state-db.js'
import { EmbeddedEventLog } from '../../src/stream/eventlog/embedded.js'
import type { ConsumedRecord } from '../../src/stream/eventlog/event-log.js'
import { batchDuration } from '../../src/stream/metrics.js'
import { wrap, type Handler, type Middleware, type RecordBatch } from '../../src/stream/middleware.js'
import { ProcessorRunner, type Processor, type ProcessorRuntime } from '../../src/stream/processor.js'
import { eventually, tempDir } from '../support/app.js'
import { readTopic } from '../support/stream.js'

// Spans recorded in memory: the runner's tracer (stream/tracing.ts) reaches this provider through the API.
const spans = new InMemorySpanExporter()
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] })
provider.register({ propagator: new W3CTraceContextPropagator() })
afterAll(async () => { await provider.shutdown() })

const IN = 'in'
const OUT = 'out'
const DEAD = 'dead-letters'
const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736'
const CALLER_SPAN = '00f067aa0ba902b7'
const traceparent = `00-${CALLER_TRACE}-${CALLER_SPAN}-01`

interface Rig { runtime: ProcessorRuntime, log: EmbeddedEventLog, state: StateDb }
const opened: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close()
  spans.reset()
})

async function rig (): Promise<Rig> {
  const dir = tempDir()
  const log = await EmbeddedEventLog.open(path.join(dir, 'log'))
  await log.ensureTopics([{ name: IN, partitions: 1 }, { name: OUT, partitions: 1 }, { name: DEAD, partitions: 1 }])
  const state = await openStateDb(path.join(dir, 'state'))
  opened.push(async () => { await log.close(); await state.close() })
  return { runtime: { state, log, health: { recovered () {}, failing () {}, deadLettered () {} } as never, logger: pino({ level: 'silent' }), deadLetterTopic: DEAD, retryMs: 1 }, log, state }
}

/** A decision-like record: its trace id in the value, optionally traced. */
const traceRecord = (trace: string, headers: Record<string, string> = {}) => ({ key: trace, value: Buffer.from(JSON.stringify({ trace })), headers: { trace_id: trace, ...headers } })
const seenKey = (trace: string) => stateKey('T', 'seen', trace)

/** Applies each record by writing its trace id's key, emits one output each, and declares that key as its de-duplication. */
function applier (overrides: Partial<Processor<{ trace: string }>> = {}): Processor<{ trace: string }> & { applied: string[] } {
  const applied: string[] = []
  return {
    applied,
    group: 'applier',
    topics: [IN],
    checkpoint: ['applier'],
    decode: r => JSON.parse(r.value.toString()) as { trace: string },
    dedupe: v => v.trace === 'none' ? undefined : seenKey(v.trace),
    process (v, _r, batch) {
      applied.push(v.trace)
      batch.writes.put(seenKey(v.trace), Buffer.from('1'))
      batch.emit(OUT, { key: v.trace, value: Buffer.from(v.trace) })
    },
    ...overrides
  }
}

async function runToEnd (r: Rig, p: Processor<any, any>): Promise<void> {
  const runner = new ProcessorRunner(r.runtime, p)
  await runner.start()
  await runner.catchUp(5000)
  await runner.stop()
}

describe('processor middleware', () => {
  it('wraps a handler once, the first listed outermost; one may stop a record before the handler', async () => {
    const calls: string[] = []
    const named = (name: string): Middleware => next => async (value, record, batch) => {
      calls.push(`${name} before`)
      if (value === 'stop' && name === 'b') return
      await next(value, record, batch)
      calls.push(`${name} after`)
    }
    const handler: Handler<string> = value => { calls.push(`handle ${value}`) }
    const h = wrap(handler, named('a'), undefined, named('b'))
    const record = {} as ConsumedRecord
    const batch = {} as RecordBatch
    await h('x', record, batch)
    expect(calls.splice(0)).toEqual(['a before', 'b before', 'handle x', 'b after', 'a after'])
    await h('stop', record, batch)
    expect(calls).toEqual(['a before', 'b before', 'a after'])
  })

  it('de-duplicates by the key a processor declares: a repeated trace id is passed over, in its batch and in a later one', async () => {
    const r = await rig()
    await r.log.append(IN, ['t1', 't2', 't1', 'none', 'none'].map(t => traceRecord(t)))
    const p = applier()
    await runToEnd(r, p)
    await r.log.append(IN, ['t2', 't3'].map(t => traceRecord(t)))
    const again = applier()
    await runToEnd(r, again)
    // A record the processor gives no key for is never passed over.
    expect(p.applied).toEqual(['t1', 't2', 'none', 'none'])
    expect(again.applied).toEqual(['t3'])
    expect((await readTopic(r.log, OUT)).map(o => o.value.toString())).toEqual(['t1', 't2', 'none', 'none', 't3'])
  })

  it('runs traced, decoded, the processor\'s own middleware, de-duplicated, processed, in that order', async () => {
    const r = await rig()
    await r.log.append(IN, [traceRecord('t1', { traceparent }), traceRecord('t1', { traceparent })])
    const seen: Array<{ value: unknown, traced: boolean }> = []
    const own: Middleware = next => async (value, record, batch) => {
      seen.push({ value, traced: batch.traceparent !== undefined })
      await next(value, record, batch)
    }
    const p = applier({ middleware: [own] })
    await runToEnd(r, p)
    // Its own middleware saw both records decoded, inside their spans; de-duplication then passed over the second.
    expect(seen).toEqual([{ value: { trace: 't1' }, traced: true }, { value: { trace: 't1' }, traced: true }])
    expect(p.applied).toEqual(['t1'])
  })

  it('processes a traced record in a span of the record\'s trace, its outputs carrying the span on; an untraced one has neither', async () => {
    const r = await rig()
    await r.log.append(IN, [traceRecord('t1', { traceparent }), traceRecord('t2')])
    await runToEnd(r, applier())
    const finished = spans.getFinishedSpans()
    expect(finished.map(s => [s.name, s.attributes['fds.trace_id'], s.spanContext().traceId, s.parentSpanContext?.spanId])).toEqual([['applier process', 't1', CALLER_TRACE, CALLER_SPAN]])
    const [traced, untraced] = await readTopic(r.log, OUT)
    expect(traced!.headers.traceparent).toBe(`00-${CALLER_TRACE}-${finished[0]!.spanContext().spanId}-01`)
    expect(untraced!.headers.traceparent).toBeUndefined()
  })

  it('decodes inside the span: a traced record that cannot be decoded marks its span failed, and is dead-lettered', async () => {
    const r = await rig()
    await r.log.append(IN, [{ key: 'bad', value: Buffer.from('not json'), headers: { trace_id: 'bad', traceparent } }])
    await runToEnd(r, applier())
    const finished = spans.getFinishedSpans()
    expect(finished.length).toBeGreaterThan(0)
    for (const s of finished) expect(s.status.code).toBe(SpanStatusCode.ERROR)
    expect((await readTopic(r.log, DEAD)).map(d => d.key)).toEqual(['bad'])
  })

  it('times each committed batch into the batch-duration histogram of its group', async () => {
    const r = await rig()
    const count = async () => (await batchDuration.get()).values.find(v => v.metricName === 'fds_processor_batch_duration_seconds_count' && v.labels.group === 'timed')?.value ?? 0
    const before = await count()
    await r.log.append(IN, [traceRecord('t1')])
    await runToEnd(r, applier({ group: 'timed', checkpoint: ['timed'] }))
    expect(await count()).toBe(before + 1)
  })
})
