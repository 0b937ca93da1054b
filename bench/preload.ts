/**
 * Scale of state: closed-loop POST /v1/score on a fresh service, then again after BENCH_PRELOAD decisions were
 * recorded through POST /v1/score/batch (500 events a request, event times spread over the 30 days before
 * now, BENCH_DISTINCT distinct users, devices, cards, emails and IPs), then on a second fresh service started
 * once the first stopped; prints the figures, the ratio of the one after the preload to the mean of the fresh
 * ones (a single fresh run moved by a third between runs on shared machines), the RSS after each, and the
 * bytes on disk per preloaded decision.
 *   npm run bench:preload          (BENCH_PRELOAD=1000000 BENCH_DISTINCT=100000 BENCH_SECONDS=10 BENCH_CONNECTIONS=32)
 */
import { execFileSync } from 'node:child_process'
import { AUTH, health, load, preloadDecisions, rssMb, scoreBodies, startService } from './load.js'

const preload = Number(process.env.BENCH_PRELOAD ?? 1_000_000)
const distinct = Number(process.env.BENCH_DISTINCT ?? 100_000)
const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32)

const bodies = scoreBodies(20_000, distinct)
const closedLoop = (url: string) => load(`${url}/v1/score`, AUTH, bodies, { seconds, connections })
const diskBytes = (dir: string) => Number(execFileSync('du', ['-sb', dir]).toString().split('\t')[0])

/** A closed-loop run after a warm-up one, with the RSS after it. */
const measured = async (s: Awaited<ReturnType<typeof startService>>) => {
  await closedLoop(s.url)
  return { ...(await closedLoop(s.url)), ...rssMb(s.child.pid!) }
}

const service = await startService()
const dataDir = service.dataDir
const fresh = await measured(service)
const before = diskBytes(dataDir)

const started = performance.now()
const failed = await preloadDecisions(service.url, preload, distinct, done => {
  process.stderr.write(`preloaded ${done} in ${((performance.now() - started) / 1000).toFixed(0)} s, RSS ${rssMb(service.child.pid!).rss.toFixed(0)} MB\n`)
})
const preloadSeconds = (performance.now() - started) / 1000
// The topologies share the cores with the API: what they have not consumed yet is drained before measuring.
const lag = async () => (await health(service.url)).lag
const lagAtEnd = await lag()
const drainStarted = performance.now()
while (Object.values(await lag()).some(n => n > 0)) await new Promise(resolve => setTimeout(resolve, 500))
const drainSeconds = (performance.now() - drainStarted) / 1000
// Warmed up as the fresh runs are: the first seconds after the preload serve from a cache of the preload's records.
const after = await measured(service)
const disk = diskBytes(dataDir)
service.child.kill('SIGTERM')
await new Promise(resolve => service.child.once('exit', resolve))
const second = await startService()
const freshAgain = await measured(second)
second.child.kill('SIGTERM')

console.log(`\n${preload} decisions preloaded in ${preloadSeconds.toFixed(0)} s (${(preload / preloadSeconds).toFixed(0)}/s, ${failed} failed batches), ${distinct} distinct entities, node ${process.version}`)
const behind = Object.entries(lagAtEnd).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]).map(([g, n]) => `${g} ${n}`).join(', ')
console.log(`lag when the preload ended: ${behind === '' ? 'none' : behind}; drained in ${drainSeconds.toFixed(0)} s`)
console.log(`${'run'.padEnd(22)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'RSS MB'.padStart(7)} ${'peak MB'.padStart(8)} ${'errors'.padStart(7)}`)
for (const [name, r] of [['fresh', fresh], ['after preload', after], ['fresh, second service', freshAgain]] as const) {
  console.log(`${name.padEnd(22)} ${r.rps.toFixed(0).padStart(8)} ${String(r.p50).padStart(7)} ${String(r.p99).padStart(7)} ${r.rss.toFixed(0).padStart(7)} ${r.peak.toFixed(0).padStart(8)} ${String(r.non2xx + r.errors).padStart(7)}`)
}
const freshMean = (fresh.rps + freshAgain.rps) / 2
console.log(`after/fresh throughput: ${(after.rps / freshMean * 100).toFixed(0)}% of the fresh runs' mean (${(after.rps / fresh.rps * 100).toFixed(0)}% and ${(after.rps / freshAgain.rps * 100).toFixed(0)}% of each); disk ${(disk / 1e6).toFixed(0)} MB, ${((disk - before) / preload).toFixed(0)} bytes per preloaded decision`)
