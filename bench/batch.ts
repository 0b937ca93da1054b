/**
 * POST /v1/score/batch with 500 events, one request at a time (what a processor's end-of-day job sends), next
 * to the bare fastify echo of the same bodies in the same run: latency p50/p99 over BENCH_BATCHES requests.
 *   npm run bench:batch            (BENCH_BATCHES=100 by default)
 * Every event has its own user, device, card and IP, so each batch reads and writes fresh state.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { start } from './service.js'

const batches = Number(process.env.BENCH_BATCHES ?? 100)
const KEY = 'sk_test_benchmarkkey000000000000'

function body (batch: number): string {
  return JSON.stringify({
    events: Array.from({ length: 500 }, (_, i) => {
      const n = batch * 500 + i
      return { event: 'payment', amount: (n * 37) % 900 + 1, currency: 'USD', user_id: `user_${n}`, device_id: `dev_${n}`, ip: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`, custom: { card_id: `card_${n}` }, terminal_id: `t${n % 300}` }
    })
  })
}

async function timed (url: string, headers: Record<string, string>): Promise<{ p50: number, p99: number, errors: number }> {
  const times: number[] = []
  let errors = 0
  for (let b = 0; b < batches + 5; b++) {
    const payload = body(b)
    const t0 = performance.now()
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: payload })
    await res.arrayBuffer()
    if (res.status !== 200) errors++
    if (b >= 5) times.push(performance.now() - t0) // the first five warm up
  }
  times.sort((a, b) => a - b)
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!
  return { p50: at(0.5), p99: at(0.99), errors }
}

const echo = await start('bench/echo-server.ts', {})
const echoResult = await timed(`${echo.url}/echo`, {})
echo.child.kill('SIGTERM')

const service = await start('src/app/main.ts', { DATA_DIR: mkdtempSync(path.join(tmpdir(), 'fds-bench-')), HOST: '127.0.0.1', PORT: '0', GRPC_PORT: '0', LOG_LEVEL: 'info', BOOTSTRAP_API_KEYS: KEY, RATE_LIMIT_PER_SECOND: '1000000', RATE_LIMIT_BURST: '1000000' })
const batchResult = await timed(`${service.url}/v1/score/batch`, { authorization: `Bearer ${KEY}` })
service.child.kill('SIGTERM')

const ms = (x: number) => x.toFixed(1).padStart(8)
console.log(`\n${batches} requests of 500 events, one at a time, node ${process.version}`)
console.log(`${'target'.padEnd(30)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'errors'.padStart(7)}`)
console.log(`${'bare fastify echo'.padEnd(30)} ${ms(echoResult.p50)} ${ms(echoResult.p99)} ${String(echoResult.errors).padStart(7)}`)
console.log(`${'POST /v1/score/batch'.padEnd(30)} ${ms(batchResult.p50)} ${ms(batchResult.p99)} ${String(batchResult.errors).padStart(7)}`)
console.log(`batch/echo latency: p50 ${(batchResult.p50 / echoResult.p50).toFixed(1)}x, p99 ${(batchResult.p99 / echoResult.p99).toFixed(1)}x`)
