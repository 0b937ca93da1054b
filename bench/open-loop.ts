/**
 * Open loop: POST /v1/score offered at a fixed rate (requests due at even intervals, latency counted from when
 * each was due: `offer` in load.ts) for a fixed time, requests over
 * BENCH_DISTINCT distinct users, devices, cards, emails and IPs; prints p50/p99/p99.9, the rate achieved and
 * errors, next to a bare fastify echo offered the same rate in the same run; then every consumer group's lag
 * (GET /healthz) when the load ends, in records and in seconds of the offered traffic, and again one second later;
 * and the CPU each process used a request (every thread), the service's and the durable floor's
 * (bench/floor-server.ts) as multiples of the echo's.
 *   npm run bench:open-loop        (BENCH_RATE=2000 BENCH_SECONDS=60 BENCH_DISTINCT=100000 BENCH_CONNECTIONS=64)
 */
import { AUTH, cpuSeconds, GC_TRACE_ARGS, gcTotals, health, load, offer, rssMb, scoreBodies, startService, type GcTotals, type LoadResult } from './load.js'
import { start } from './service.js'

const rate = Number(process.env.BENCH_RATE ?? 2000)
const seconds = Number(process.env.BENCH_SECONDS ?? 60)
const distinct = Number(process.env.BENCH_DISTINCT ?? 100_000)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 64)
const bodies = scoreBodies(Math.max(distinct, 20_000), distinct)
const offered = (url: string, headers: Record<string, string>, s = seconds) => offer(url, headers, bodies, { seconds: s, connections, rate })

const echo = await start('bench/echo-server.ts', {})
await offered(`${echo.url}/echo`, {}, 5)
const echoCpu = cpuSeconds(echo.child.pid!)
const echoResult = await offered(`${echo.url}/echo`, {})
const echoUs = (cpuSeconds(echo.child.pid!) - echoCpu) * 1e6 / (echoResult.rps * seconds)
echo.child.kill('SIGTERM')

const floor = await start('bench/floor-server.ts', {}, GC_TRACE_ARGS)
const floorGc = gcTotals(floor.child)
await offered(`${floor.url}/v1/score`, {}, 5)
const floorCpu = cpuSeconds(floor.child.pid!)
floorGc.open()
const floorResult = await offered(`${floor.url}/v1/score`, {})
const floorCollections = floorGc.close()
const floorUs = (cpuSeconds(floor.child.pid!) - floorCpu) * 1e6 / (floorResult.rps * seconds)
floor.child.kill('SIGTERM')

const service = await startService({}, GC_TRACE_ARGS)
const serviceGc = gcTotals(service.child)
const url = `${service.url}/v1/score`
await load(url, AUTH, bodies, { seconds: 5, connections: 8 }) // warm-up
const scoreCpu = cpuSeconds(service.child.pid!)
serviceGc.open()
const scoreResult = await offered(url, AUTH)
const scoreCollections = serviceGc.close()
const scoreUs = (cpuSeconds(service.child.pid!) - scoreCpu) * 1e6 / (scoreResult.rps * seconds)
const lagAt = async () => (await health(service.url)).lag
const lagEnd = await lagAt()
await new Promise(resolve => setTimeout(resolve, 1000))
const lagLater = await lagAt()
const rss = rssMb(service.child.pid!)
service.child.kill('SIGTERM')

const row = (name: string, r: LoadResult) =>
  `${name.padEnd(26)} ${r.rps.toFixed(0).padStart(8)} ${String(r.p50).padStart(7)} ${String(r.p99).padStart(7)} ${String(r.p999).padStart(8)} ${String(r.non2xx + r.errors).padStart(7)}`
console.log(`\nopen loop: ${rate} req/s offered for ${seconds}s over ${connections} connections, ${distinct} distinct entities, node ${process.version}`)
console.log(`${'target'.padEnd(26)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'p99.9 ms'.padStart(8)} ${'errors'.padStart(7)}`)
console.log(row('bare fastify echo', echoResult))
console.log(row('durable floor', floorResult))
console.log(row('POST /v1/score (embedded)', scoreResult))
console.log(`achieved/offered: echo ${(echoResult.rps / rate * 100).toFixed(0)}%, score ${(scoreResult.rps / rate * 100).toFixed(0)}%; p99 score/echo ${(scoreResult.p99 / Math.max(1, echoResult.p99)).toFixed(1)}x; RSS ${rss.rss.toFixed(0)} MB (peak ${rss.peak.toFixed(0)})`)
console.log(`CPU a request (every thread): echo ${echoUs.toFixed(0)} us, durable floor ${floorUs.toFixed(0)} us (${(floorUs / echoUs).toFixed(1)}x), score ${scoreUs.toFixed(0)} us (${(scoreUs / echoUs).toFixed(1)}x)`)
const gcRow = (name: string, g: GcTotals, r: LoadResult) =>
  `  ${name.padEnd(16)} ${(g.allocatedBytes / (r.rps * seconds) / 1024).toFixed(1).padStart(7)} KB a request; ${g.scavenges} scavenges, ${g.fullCollections} full collections pausing ${g.fullPauseMs.toFixed(0)} ms in all, longest pause ${g.longestPauseMs.toFixed(1)} ms`
console.log('JavaScript allocated, and collections, while the load ran (node --trace-gc-nvp, every thread):')
console.log(gcRow('durable floor', floorCollections, floorResult))
console.log(gcRow('score', scoreCollections, scoreResult))
console.log('consumer lag when the load ended, and 1 s later (records; seconds of offered traffic):')
for (const [group, n] of Object.entries(lagEnd).sort((a, b) => b[1] - a[1])) {
  console.log(`  ${group.padEnd(44)} ${String(n).padStart(8)} (${(n / rate).toFixed(2)} s)  ${String(lagLater[group] ?? 0).padStart(8)} (${((lagLater[group] ?? 0) / rate).toFixed(2)} s)`)
}
