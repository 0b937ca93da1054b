import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { EmbeddedEventLog } from '../../src/stream/eventlog/embedded.js'
import type { EventLog } from '../../src/stream/eventlog/event-log.js'
import { KafkaEventLog } from '../../src/stream/eventlog/kafka.js'
import { auth, eventually, operatorAuth, tempDir, TEST_KEY } from '../support/app.js'
import { exited, startService, stopService, type ServiceProcess } from '../support/child.js'
import { kafkaBrokersOrSkip, uniqueName } from '../support/kafka.js'
import { readDecisionStream } from '../support/stream.js'
import { prefixRange, TAG } from '../../src/stores/keys.js'
import { scan } from '../../src/stores/rocks.js'
import { openStateDb } from '../../src/stores/state-db.js'
import type { TransactionRecord } from '../../src/domain/records/decisions.js'

const RESPONSES_BEFORE_KILL = 300
const CONCURRENCY = 16

/**
 * Scores until N responses came back, then signals the process with requests still in flight. After SIGKILL
 * nothing more can answer; after SIGTERM, requests in flight are finished and their answers count too.
 * Resolves with every decision returned and, for SIGTERM, how long the process took to exit.
 */
async function scoreUntilKilled (service: ServiceProcess, signal: 'SIGKILL' | 'SIGTERM' = 'SIGKILL'): Promise<{ returned: Map<string, unknown>, exitMs: number }> {
  const returned = new Map<string, unknown>()
  let killed = false
  let signalledAt = 0
  let i = 0
  const worker = async () => {
    while (!killed) {
      const n = i++
      try {
        const res = await fetch(`${service.url}/v1/score`, {
          method: 'POST',
          headers: { ...auth(), 'content-type': 'application/json' },
          body: JSON.stringify({ event: 'payment', amount: n % 500, user_id: `u${n % 50}`, device_id: `d${n % 80}`, ip: `10.0.${n % 3}.1` })
        })
        if (res.status !== 200) throw new Error(`unexpected ${res.status}: ${await res.text()}`)
        const body = await res.json() as { trace_id: string }
        if (killed && signal === 'SIGKILL') continue
        returned.set(body.trace_id, body)
        if (returned.size >= RESPONSES_BEFORE_KILL && !killed) {
          killed = true
          signalledAt = performance.now()
          service.child.kill(signal)
        }
      } catch (err) {
        if (!killed) throw err
      }
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  await exited(service)
  return { returned, exitMs: performance.now() - signalledAt }
}

/** A feature of the decision a probe request gets (its features describe the history before it). */
async function probeFeature (url: string, request: Record<string, unknown>, feature: string): Promise<number> {
  const res = await fetch(`${url}/v1/score`, { method: 'POST', headers: { ...auth(), 'content-type': 'application/json' }, body: JSON.stringify({ event: 'payment', amount: 0, ...request }) })
  const { trace_id: traceId } = await res.json() as { trace_id: string }
  const recorded = await (await fetch(`${url}/v1/transactions/${traceId}`, { headers: auth() })).json() as { evaluation: { features: Record<string, number> } }
  return recorded.evaluation.features[feature]!
}

/**
 * After a crash and a restart, the velocity of every user, device and IP the load used equals what the
 * decisions on the stream (every durable decision, returned or not) add up to: what a run without the
 * crash would hold.
 */
async function expectVelocityOf (url: string, decisions: Iterable<TransactionRecord>): Promise<void> {
  const expected = new Map<string, { count: number, sum: number }>()
  for (const d of decisions) {
    for (const [dim, value] of [['user_id', d.request.user_id], ['device_id', d.request.device_id], ['ip', d.request.ip]]) {
      const e = expected.get(`${dim}=${value}`) ?? { count: 0, sum: 0 }
      e.count++
      e.sum += d.request.amount ?? 0
      expected.set(`${dim}=${value}`, e)
    }
  }
  const actual = new Map<string, { count: number, sum: number }>()
  for (const key of expected.keys()) {
    const [dim, value] = key.split('=') as [string, string]
    const name = dim === 'user_id' ? 'user' : dim === 'device_id' ? 'device' : 'ip'
    const count = await probeFeature(url, { [dim]: value }, `${name}_count_1h`)
    // The count probe is in the sum probe's history: one more decision, of amount 0.
    const sum = dim === 'user_id' ? await probeFeature(url, { [dim]: value }, 'user_sum_24h') : expected.get(key)!.sum
    actual.set(key, { count, sum })
  }
  expect(actual).toEqual(expected)
}

/** Velocity journal entries in a stopped service's state: increments not in the velocity records yet. */
async function journalEntries (dataDir: string): Promise<number> {
  const state = await openStateDb(path.join(dataDir, 'state'))
  let n = 0
  for await (const _ of scan(state.db, ...prefixRange(TAG.velocityJournal))) n++
  await state.close()
  return n
}

async function crashAndRecover (env: Record<string, string>, openLog: () => Promise<EventLog>, topic: string, afterStop: boolean, signal: 'SIGKILL' | 'SIGTERM' = 'SIGKILL'): Promise<void> {
  // The first process never writes its velocity records (a flush interval longer than the run): after
  // SIGKILL every increment is in the journal only, and the restart must apply them all again.
  const first = await startService(signal === 'SIGKILL' ? { ...env, VELOCITY_FLUSH_MS: '3600000' } : env)
  const { returned, exitMs } = await scoreUntilKilled(first, signal)
  if (signal === 'SIGKILL') expect(await journalEntries(env.DATA_DIR!)).toBeGreaterThanOrEqual(RESPONSES_BEFORE_KILL)
  expect(returned.size).toBeGreaterThanOrEqual(RESPONSES_BEFORE_KILL)
  if (signal === 'SIGTERM') {
    console.info(`[shutdown] exited ${Math.round(exitMs)} ms after SIGTERM under load (code ${first.child.exitCode})`)
    if (first.child.exitCode !== 0 || process.env.TEST_SHOW_SHUTDOWN !== undefined) console.info(first.output().split('\n').filter(l => /shutting|shutdown|deadline|"level":[456]/.test(l)).slice(-12).join('\n'))
    expect(exitMs).toBeLessThan(10_000)
    expect(first.child.exitCode).toBe(0)
  }

  const second = await startService(env)
  try {
    for (const [traceId, decision] of returned) {
      const res = await fetch(`${second.url}/v1/transactions/${traceId}`, { headers: auth() })
      expect(res.status, traceId).toBe(200)
      expect((await res.json() as { decision: unknown }).decision).toEqual(decision)
    }
    await eventually(async () => {
      const health = await (await fetch(`${second.url}/healthz`, { headers: operatorAuth() })).json() as { outbox_pending: number }
      return health.outbox_pending === 0 || undefined
    }, 30000, 'outbox drained after restart')
  } finally {
    if (afterStop) await stopService(second)
  }
  const log = await openLog()
  try {
    const stream = await readDecisionStream(log, topic, uniqueName('dedupe'), returned.keys())
    expect(stream.missing).toEqual([])
    for (const traceId of returned.keys()) expect(stream.byTrace.get(traceId)?.trace_id).toBe(traceId)
    console.info(`[${signal}] ${returned.size} returned decisions, ${stream.byTrace.size} distinct on the stream, ${stream.raw - stream.byTrace.size} duplicates removed by the consumer`)
    if (signal === 'SIGKILL') {
      if (afterStop) await log.close()
      const probe = afterStop ? await startService(env) : second
      try {
        await expectVelocityOf(probe.url, stream.byTrace.values())
      } finally {
        if (afterStop) await stopService(probe)
      }
    }
  } finally {
    if (!(afterStop && signal === 'SIGKILL')) await log.close()
    if (!afterStop) await stopService(second)
  }
}

describe('SIGKILL after N responses loses no returned decision', () => {
  it('on the embedded log', async () => {
    const dataDir = tempDir('fds-crash-')
    const env = { DATA_DIR: dataDir, BOOTSTRAP_API_KEYS: TEST_KEY }
    await crashAndRecover(env, () => EmbeddedEventLog.open(path.join(dataDir, 'log')), 'decisions', true)
  })

  it('on real Kafka', async () => {
    const brokers = await kafkaBrokersOrSkip('SIGKILL test on Kafka')
    if (brokers === undefined) return
    const prefix = `${uniqueName('crash')}.`
    const env = { DATA_DIR: tempDir('fds-crash-k-'), BOOTSTRAP_API_KEYS: TEST_KEY, TRANSPORT: 'kafka', KAFKA_BROKERS: brokers.join(','), TOPIC_PREFIX: prefix }
    await crashAndRecover(env, async () => new KafkaEventLog({ brokers, clientId: 'crash-reader' }), `${prefix}decisions`, false)
  })
})

describe('SIGTERM under load exits within 10 s and loses no returned decision', () => {
  it('on the embedded log', async () => {
    const dataDir = tempDir('fds-term-')
    const env = { DATA_DIR: dataDir, BOOTSTRAP_API_KEYS: TEST_KEY }
    await crashAndRecover(env, () => EmbeddedEventLog.open(path.join(dataDir, 'log')), 'decisions', true, 'SIGTERM')
  })

  it('on real Kafka', async () => {
    const brokers = await kafkaBrokersOrSkip('SIGTERM test on Kafka')
    if (brokers === undefined) return
    const prefix = `${uniqueName('term')}.`
    const env = { DATA_DIR: tempDir('fds-term-k-'), BOOTSTRAP_API_KEYS: TEST_KEY, TRANSPORT: 'kafka', KAFKA_BROKERS: brokers.join(','), TOPIC_PREFIX: prefix }
    await crashAndRecover(env, async () => new KafkaEventLog({ brokers, clientId: 'term-reader' }), `${prefix}decisions`, false, 'SIGTERM')
  })
})
