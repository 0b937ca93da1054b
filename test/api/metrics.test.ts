import { once } from 'node:events'
import { connect } from 'node:net'
import { setTimeout } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { auth, eventually, OPERATOR_TOKEN, operatorAuth, startTestApp } from '../support/app.js'
import { Receiver } from '../support/receiver.js'
import { webhookEnv } from '../contract/webhooks.flow.js'

let app: App
let receiver: Receiver
const TOKEN = 'metrics-test-token'
const scrape = async (target: App, token: string | null = TOKEN) => fetch(`${target.metricsAddress!}/metrics`, { headers: token === null ? {} : { authorization: `Bearer ${token}` } })
/** The value of the first sample whose line starts with `prefix` (name and labels), or undefined. */
const sample = (text: string, prefix: string) => {
  const line = text.split('\n').find(l => l.startsWith(prefix))
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1))
}

beforeAll(async () => {
  receiver = await Receiver.start()
  app = await startTestApp({ ...webhookEnv(receiver), METRICS_PORT: '0', METRICS_TOKEN: TOKEN }, { listen: true })
})
afterAll(async () => {
  await app.close()
  await receiver.down()
})

describe('GET /metrics on its own port', () => {
  it('answers only the bearer of METRICS_TOKEN, on another port than the API', async () => {
    expect(app.metricsAddress).not.toBe(app.address)
    expect((await scrape(app, null)).status).toBe(401)
    expect((await scrape(app, 'wrong')).status).toBe(401)
    const res = await scrape(app)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/plain')
    expect((await fetch(`${app.address!}/metrics`)).status).toBe(404)
  })

  it('counts HTTP requests, decisions, rule matches, versions, the outbox, lag, batches, webhook deliveries, RocksDB and Node', async () => {
    await fetch(`${app.address!}/v1/webhooks`, { method: 'POST', headers: { ...auth(), 'content-type': 'application/json' }, body: JSON.stringify({ url: receiver.url, events: ['case.created'] }) })
    const res = await fetch(`${app.address!}/v1/score`, { method: 'POST', headers: { ...auth(), 'content-type': 'application/json' }, body: JSON.stringify({ event: 'payment', amount: 20_000, currency: 'EUR', user_id: 'u-metrics' }) })
    const decision = await res.json() as { action: string, risk_level: string }
    expect(decision.action).toBe('flag')
    await eventually(() => receiver.received.length > 0 || undefined, 20000, 'the webhook delivery')
    const text = await eventually(async () => {
      const t = await (await scrape(app)).text()
      return /fds_webhook_delivery_attempts_total\{outcome="succeeded",attempt="1"\} [1-9]/.test(t) ? t : undefined
    }, 10000, 'the delivery counted')
    expect(sample(text, `fds_decisions_total{action="flag",risk_level="${decision.risk_level}",mode="test"}`)).toBeGreaterThanOrEqual(1)
    expect(sample(text, 'fds_http_request_duration_seconds_count{method="POST",route="/v1/score",status="200"}')).toBeGreaterThanOrEqual(1)
    expect(sample(text, 'fds_rule_matches_total{rule="amount_over_10000",mode="enforce"}')).toBeGreaterThanOrEqual(1)
    expect(text).toMatch(/fds_active_version_info\{kind="ruleset",mode="test",version="rs_default_2"\} 1/)
    expect(text).toMatch(/fds_active_version_info\{kind="model",mode="test",version="[^"]+"\} 1/)
    expect(sample(text, 'fds_outbox_pending')).toBeGreaterThanOrEqual(0)
    expect(sample(text, 'fds_outbox_publish_latency_seconds_count')).toBeGreaterThanOrEqual(1)
    expect(text).toMatch(/fds_consumer_lag_records\{group="[^"]+",partition="[^"]+\/\d+"\} \d+/)
    expect(text).toMatch(/fds_processor_batch_duration_seconds_count\{group="[^"]*case-opener[^"]*"\} [1-9]/)
    expect(text).toMatch(/fds_rocksdb\{db="state",figure="memtable_bytes"\} \d+/)
    expect(text).toMatch(/fds_rocksdb\{db="state",figure="pending_compaction_bytes"\} \d+/)
    expect(text).toMatch(/fds_rocksdb\{db="state",figure="block_cache_usage_bytes"\} \d+/)
    expect(text).toContain('fds_nodejs_eventloop_lag_seconds')
    expect(text).toContain('fds_nodejs_gc_duration_seconds')
    expect(text).toContain('fds_dead_lettered_total')
  })
})

describe('shutdown', () => {
  it('is not held open by a scraper that sent half a request, or one that stopped reading its answer', async () => {
    const own = await startTestApp({ METRICS_PORT: '0' }, { listen: true })
    const { hostname, port } = new URL(own.metricsAddress!)
    const stalled = async (request: string) => {
      const socket = connect(Number(port), hostname)
      socket.on('error', () => {}) // the reset that close() sends is the point
      await once(socket, 'connect')
      socket.write(request)
      socket.pause()
      return socket
    }
    const half = await stalled('GET /metrics HTTP/1.1\r\nHost: metrics\r\n')
    const unread = await stalled(`GET /metrics HTTP/1.1\r\nHost: metrics\r\nAuthorization: Bearer ${OPERATOR_TOKEN}\r\n\r\n`)
    const closed = own.close().then(() => 'closed')
    // Node waits up to 60 s (headersTimeout) for the rest of a request, and for ever for an answer nobody reads.
    const outcome = await Promise.race([closed, setTimeout(20_000, 'still open')])
    half.destroy()
    unread.destroy()
    expect(outcome).toBe('closed')
  })
})

describe('metrics of the topologies in a worker thread', () => {
  it('are served with the main thread\'s', async () => {
    const threaded = await startTestApp({ METRICS_PORT: '0', TOPOLOGY_THREAD: 'worker' }, { listen: true })
    try {
      const text = await (await scrape(threaded, OPERATOR_TOKEN)).text()
      expect(text).toMatch(/fds_rocksdb\{db="topologies",figure="memtable_bytes"\} \d+/)
      expect(text).toMatch(/fds_rocksdb\{db="state",figure="memtable_bytes"\} \d+/)
    } finally {
      await threaded.close()
    }
  })
})

describe('GET /readyz', () => {
  it('is ready once the views caught up, and 503 while a consumer lags past READY_MAX_LAG', async () => {
    const own = await startTestApp({ READY_MAX_LAG: '2' })
    let release: () => void = () => {}
    const held = new Promise<void>(resolve => { release = resolve })
    try {
      const ready = await eventually(async () => { const r = await own.server.inject({ method: 'GET', url: '/readyz' }); return r.statusCode === 200 ? r.json() as { status: string } : undefined }, 10000, 'ready')
      expect(ready.status).toBe('ready')
      // A consumer that takes its first batch and never finishes it.
      await own.log.subscribe({ group: 'stuck-consumer', topics: [own.topics.decisions], fromBeginning: true, onBatch: () => held })
      for (let i = 0; i < 5; i++) await own.server.inject({ method: 'POST', url: '/v1/score', headers: auth(), payload: { event: 'login', user_id: `u-ready-${i}` } })
      const lagging = await eventually(async () => { const r = await own.server.inject({ method: 'GET', url: '/readyz', headers: operatorAuth() }); return r.statusCode === 503 ? r.json() as { status: string, reasons: string[] } : undefined }, 10000, 'not ready')
      expect((await own.server.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'not_ready' })
      expect(lagging.status).toBe('not_ready')
      expect(lagging.reasons.join(' ')).toMatch(/stuck-consumer is \d+ records behind \(READY_MAX_LAG 2\)/)
      expect((await own.server.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200)
    } finally {
      release()
      await own.close()
    }
  })
})
