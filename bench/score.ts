/**
 * Loads POST /v1/score over loopback with autocannon and prints req/s, latency p50/p99 and the server's RSS,
 * next to a bare fastify echo measured the same way in the same run.
 *   npm run bench:score            (BENCH_SECONDS=10 BENCH_CONNECTIONS=32 by default)
 * The service runs as its own process on the embedded transport with a fresh data directory.
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { start } from './service.js'

const root = path.resolve(import.meta.dirname, '..')
const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32)
const KEY = 'sk_test_benchmarkkey000000000000'

function rssMb (pid: number): { rss: number, peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0)
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 }
}

function bodies (n: number): string[] {
  return Array.from({ length: n }, (_, i) => JSON.stringify({
    event: 'payment', amount: (i * 37) % 900 + 1, currency: 'USD', user_id: `user_${i % 5000}`,
    device_id: `dev_${i % 7000}`, ip: `10.${(i >> 8) & 255}.${i & 255}.7`, email: `u${i % 5000}@example.com`, terminal_id: `t${i % 300}`
  }))
}

async function load (url: string, pathName: string, headers: Record<string, string>, conns = connections) {
  const pool = bodies(20000)
  let i = 0
  const result = await autocannon({
    url: url + pathName,
    method: 'POST',
    connections: conns,
    duration: seconds,
    headers: { 'content-type': 'application/json', ...headers },
    requests: [{ setupRequest: req => ({ ...req, body: pool[i++ % pool.length] }) }]
  })
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors
  }
}

const echo = await start('bench/echo-server.ts', {})
await load(echo.url, '/echo', {}) // warm-up
const echoResult = { ...(await load(echo.url, '/echo', {})), ...rssMb(echo.child.pid!) }
echo.child.kill('SIGTERM')

const service = await start('src/app/main.ts', { DATA_DIR: mkdtempSync(path.join(tmpdir(), 'fds-bench-')), HOST: '127.0.0.1', PORT: '0', GRPC_PORT: '0', LOG_LEVEL: 'info', BOOTSTRAP_API_KEYS: KEY,
  // One key drives the whole load: lift its rate limit so the figures measure the service, not the limiter.
  RATE_LIMIT_PER_SECOND: '1000000', RATE_LIMIT_BURST: '1000000' })
// Warm up (JIT, RocksDB caches) before measuring.
await load(service.url, '/v1/score', { authorization: `Bearer ${KEY}` })
const scoreResult = { ...(await load(service.url, '/v1/score', { authorization: `Bearer ${KEY}` })), ...rssMb(service.child.pid!) }
const single = await load(service.url, '/v1/score', { authorization: `Bearer ${KEY}` }, 1)
const health = await (await fetch(`${service.url}/healthz`)).json()
service.child.kill('SIGTERM')

const row = (name: string, r: typeof scoreResult) =>
  `${name.padEnd(28)} ${r.rps.toFixed(0).padStart(8)} ${String(r.p50).padStart(8)} ${String(r.p99).padStart(8)} ${r.rss.toFixed(0).padStart(8)} ${r.peak.toFixed(0).padStart(9)} ${String(r.non2xx + r.errors).padStart(7)}`
console.log(`\nloopback, ${connections} connections, ${seconds}s per run, node ${process.version}`)
console.log(`${'target'.padEnd(28)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'RSS MB'.padStart(8)} ${'peak MB'.padStart(9)} ${'errors'.padStart(7)}`)
console.log(row('bare fastify echo', echoResult))
console.log(row('POST /v1/score (embedded)', scoreResult))
console.log(`${'POST /v1/score, 1 connection'.padEnd(28)} ${single.rps.toFixed(0).padStart(8)} ${String(single.p50).padStart(8)} ${String(single.p99).padStart(8)}`)
console.log(`score/echo throughput: ${(scoreResult.rps / echoResult.rps * 100).toFixed(0)}%   service health after run: ${JSON.stringify(health)}`)
