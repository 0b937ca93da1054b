/**
 * Loads POST /v1/score over loopback with autocannon (closed loop) and prints req/s, latency p50/p99 and the
 * server's RSS, next to a bare fastify echo measured the same way in the same run.
 *   npm run bench:score            (BENCH_SECONDS=10 BENCH_CONNECTIONS=32 by default)
 * The service runs as its own process with a fresh data directory on the embedded transport, and also on
 * Kafka when BENCH_KAFKA_BROKERS is set (a running broker; its figure is printed as a ratio to embedded).
 * The durable floor (bench/floor-server.ts: parse, one fsynced group-committed write, a fixed answer) shows how
 * much of echo's throughput any durable decision API keeps on this stack before it decides anything.
 */
import { AUTH, load, rssMb, scoreBodies, startService, type LoadResult } from './load.js'
import { start } from './service.js'

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32)
const kafka = process.env.BENCH_KAFKA_BROKERS
const bodies = scoreBodies(20000)
const run = (url: string, headers: Record<string, string>, conns = connections) => load(url, headers, bodies, { seconds, connections: conns })

const echo = await start('bench/echo-server.ts', {})
await run(`${echo.url}/echo`, {}) // warm-up
const echoResult = { ...(await run(`${echo.url}/echo`, {})), ...rssMb(echo.child.pid!) }
echo.child.kill('SIGTERM')

const floor = await start('bench/floor-server.ts', {})
await run(`${floor.url}/v1/score`, {}) // warm-up
const floorResult = { ...(await run(`${floor.url}/v1/score`, {})), ...rssMb(floor.child.pid!) }
floor.child.kill('SIGTERM')

async function measure (env: Record<string, string>, single: boolean) {
  const service = await startService(env)
  const url = `${service.url}/v1/score`
  await run(url, AUTH) // warm-up (JIT, RocksDB caches)
  const result = { ...(await run(url, AUTH)), ...rssMb(service.child.pid!) }
  const one = single ? await run(url, AUTH, 1) : undefined
  const health = await (await fetch(`${service.url}/healthz`)).json() as { status: string }
  service.child.kill('SIGTERM')
  return { result, one, health: health.status }
}

const embedded = await measure({}, true)
const onKafka = kafka === undefined ? undefined : await measure({ TRANSPORT: 'kafka', KAFKA_BROKERS: kafka, TOPIC_PREFIX: `bench-${Date.now().toString(36)}.` }, false)

const row = (name: string, r: LoadResult & { rss?: number, peak?: number }) =>
  `${name.padEnd(28)} ${r.rps.toFixed(0).padStart(8)} ${String(r.p50).padStart(8)} ${String(r.p99).padStart(8)} ${(r.rss ?? 0).toFixed(0).padStart(8)} ${(r.peak ?? 0).toFixed(0).padStart(9)} ${String(r.non2xx + r.errors).padStart(7)}`
console.log(`\nloopback, ${connections} connections, ${seconds}s per run, node ${process.version}`)
console.log(`${'target'.padEnd(28)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'RSS MB'.padStart(8)} ${'peak MB'.padStart(9)} ${'errors'.padStart(7)}`)
console.log(row('bare fastify echo', echoResult))
console.log(row('durable floor', floorResult))
console.log(row('POST /v1/score (embedded)', embedded.result))
if (embedded.one !== undefined) console.log(row('POST /v1/score, 1 connection', embedded.one))
if (onKafka !== undefined) console.log(row('POST /v1/score (kafka)', onKafka.result))
const pct = (a: number, b: number) => `${(a / b * 100).toFixed(1)}%`
console.log(`score/echo throughput: ${pct(embedded.result.rps, echoResult.rps)}   floor/echo: ${pct(floorResult.rps, echoResult.rps)}   score/floor: ${pct(embedded.result.rps, floorResult.rps)}   health after run: ${embedded.health}`)
if (onKafka !== undefined) console.log(`kafka/embedded throughput: ${pct(onKafka.result.rps, embedded.result.rps)}   health after run: ${onKafka.health}`)
