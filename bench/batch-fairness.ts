/**
 * Batch fairness: single live scores offered at a fixed rate (open loop, latency from when each was due), alone
 * and then while another key of the same tenant keeps BENCH_ATTACKERS of the largest batches the API accepts in
 * flight (500 events, as many keys and bytes as the batch bounds allow). Prints the live p50/p99/p99.9 of both
 * phases and their ratio, how many batches were answered 200 and 429, and the longest the service's event loop
 * stalled in each phase (a timer in the service would measure itself; here a 1 ms probe request cannot, so the
 * figure is the live score's worst latency). The service runs with the default rate limits (500/s, burst 1,000).
 *   npm run bench:batch-fairness   (BENCH_RATE=200 BENCH_SECONDS=15 BENCH_ATTACKERS=3 BENCH_EVENT_KEYS=90)
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import path from 'node:path'
import { offer, scoreBodies, startService, type LoadResult } from './load.js'

const rate = Number(process.env.BENCH_RATE ?? 200)
const seconds = Number(process.env.BENCH_SECONDS ?? 15)
const attackers = Number(process.env.BENCH_ATTACKERS ?? 3)
/** Keys of each batch event: 90 keeps 500 events under the batch's 50,000 keys and 1 MiB. */
const eventKeys = Number(process.env.BENCH_EVENT_KEYS ?? 90)
const LIVE_KEY = 'sk_live_benchmarkkey000000000000'
const BATCH_KEY = 'sk_test_benchmarkkey000000000000'

const service = await startService({ BOOTSTRAP_API_KEYS: `${BATCH_KEY},${LIVE_KEY}`, RATE_LIMIT_PER_SECOND: '500', RATE_LIMIT_BURST: '1000' })
const url = `${service.url}/v1/score`
const live = { authorization: `Bearer ${LIVE_KEY}` }
const bodies = scoreBodies(rate * seconds, 5000)
await offer(url, live, bodies, { seconds: 3, connections: 16, rate }) // warm-up
const alone = await offer(url, live, bodies, { seconds, connections: 16, rate })

// The batches come from another process, so the live client's own event loop measures only the service.
const attacker = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'batch-attacker.ts')], {
  env: { ...process.env, BENCH_URL: service.url, BENCH_KEY: BATCH_KEY, BENCH_ATTACKERS: String(attackers), BENCH_EVENT_KEYS: String(eventKeys) }, stdio: ['ignore', 'pipe', 'inherit']
})
let report = ''
attacker.stdout!.on('data', d => { report += d })
await new Promise(resolve => setTimeout(resolve, 1000))
const contended = await offer(url, live, bodies, { seconds, connections: 16, rate })
attacker.kill('SIGTERM')
await once(attacker, 'exit')
const answered = JSON.parse(report.trim().split('\n').pop()!) as { ok: number, limited: number, other: number, bytes: number }
service.child.kill('SIGTERM')

const row = (name: string, r: LoadResult) =>
  `${name.padEnd(34)} ${r.rps.toFixed(0).padStart(6)} ${String(r.p50).padStart(7)} ${String(r.p99).padStart(7)} ${String(r.p999).padStart(8)} ${String(r.non2xx + r.errors).padStart(7)}`
console.log(`\nlive POST /v1/score at ${rate} req/s for ${seconds}s; batches of 500 events x ${eventKeys} keys (${(answered.bytes / 1024 / 1024).toFixed(2)} MiB), ${attackers} in flight; node ${process.version}`)
console.log(`${'live scores'.padEnd(34)} ${'req/s'.padStart(6)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'p99.9 ms'.padStart(8)} ${'errors'.padStart(7)}`)
console.log(row('alone', alone))
console.log(row('while batches are sent', contended))
console.log(`live p99 with batches / alone: ${(contended.p99 / Math.max(0.1, alone.p99)).toFixed(1)}x (+${(contended.p99 - alone.p99).toFixed(1)} ms); batches answered 200: ${answered.ok}, 429: ${answered.limited}, other: ${answered.other}`)
