/**
 * The scale-out ceiling on Kafka: every API instance of a cell materializes the other instances' decisions of the
 * cell, so one instance's materialization rate bounds the cell (docs/architecture.md#cells). Instance A records
 * BENCH_DECISIONS decisions (POST /v1/score/batch); then instance B starts on a fresh data directory and catches
 * up on them. Prints A's scoring rates (batch, and closed-loop POST /v1/score) and CPU a scored decision, B's
 * catch-up rate (with and without its start-up; the ratios use the rate once it listens) and CPU a materialized
 * decision, their ratios, and the throughput they imply for n instances of a cell and for 1, 2, 4 and 8 cells.
 * Topologies do not run in either instance (they scale on their own).
 *   BENCH_KAFKA_BROKERS=127.0.0.1:19092 npm run bench:scale-out      (BENCH_DECISIONS=200000 BENCH_DISTINCT=100000)
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Kafka, logLevel } from 'kafkajs'
import { AUTH, BATCH_SIZE, cpuSeconds, health, load, mainThreadCpuSeconds, preloadDecisions, scoreBodies, startService, threadCpuSeconds } from './load.js'

const brokers = process.env.BENCH_KAFKA_BROKERS
if (brokers === undefined) throw new Error('BENCH_KAFKA_BROKERS: a running Kafka broker (bash deploy/kafka/kafka-local.sh start)')
const decisions = Number(process.env.BENCH_DECISIONS ?? 200_000)
const distinct = Number(process.env.BENCH_DISTINCT ?? 100_000)
const env = { TRANSPORT: 'kafka', KAFKA_BROKERS: brokers, TOPIC_PREFIX: `scale-${Date.now().toString(36)}.`, TOPOLOGIES: 'none' }
const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))

const a = await startService(env)
const cpuBeforeScoring = cpuSeconds(a.child.pid!)
const loopBeforeScoring = mainThreadCpuSeconds(a.child.pid!)
const scored = await load(`${a.url}/v1/score`, AUTH, scoreBodies(20_000, distinct), { seconds: 10, connections: 32 })
const cpuScoring = cpuSeconds(a.child.pid!) - cpuBeforeScoring
const loopScoring = mainThreadCpuSeconds(a.child.pid!) - loopBeforeScoring
const started = performance.now()
const failed = await preloadDecisions(a.url, decisions, distinct, done => process.stderr.write(`A recorded ${done}\n`))
const batchRate = decisions / ((performance.now() - started) / 1000)
// What B has to apply: every record on the decisions topic (the closed loop's rate is an average, not a count),
// once the outbox is empty and the topic stopped growing (the relay's last send may be on its way).
const admin = new Kafka({ clientId: 'bench-scale-out', brokers: brokers.split(','), logLevel: logLevel.NOTHING }).admin()
await admin.connect()
const topicSize = async () => (await admin.fetchTopicOffsets(`${env.TOPIC_PREFIX}decisions`)).reduce((n, p) => n + Number(p.offset), 0)
let onTopic = -1
const recorded = decisions - failed * BATCH_SIZE
const waitUntil = Date.now() + 120_000
while (true) {
  const pending = (await health(a.url)).outbox_pending
  const size = await topicSize()
  // At least every batch decision: runs counted the topic thousands short with the outbox reported empty.
  if (pending === 0 && size === onTopic && size >= recorded) break
  if (Date.now() > waitUntil) throw new Error(`${size} records on the decisions topic after 2 minutes, ${recorded} batch decisions recorded, outbox pending ${pending}`)
  onTopic = size
  await sleep(500)
}
await admin.disconnect()
// The closed loop's decisions, counted on the topic (autocannon's average of per-second samples overstates them).
const closedLoop = onTopic - (decisions - failed * BATCH_SIZE)
const closedLoopRate = closedLoop / 10
const cpuPerScored = cpuScoring / closedLoop

const catchUpStarted = performance.now()
const b = await startService(env)
// From the moment B listens: its start-up (opening its stores) is left out, which a cluster pays once per
// instance, not per decision; joining the consumer groups is in. Not from the first poll that finds decisions
// materialized: a poll is answered between batches, late by as much as a catch-up keeps the event loop busy.
const listening = performance.now()
const cpuAtListening = cpuSeconds(b.child.pid!)
const loopAtListening = mainThreadCpuSeconds(b.child.pid!)
const threadsAtListening = threadCpuSeconds(b.child.pid!)
while (true) {
  const h = await health(b.url)
  if (h.materialized >= onTopic - 1000 && Object.values(h.lag).every(n => n === 0)) break
  await sleep(250)
}
const ended = performance.now()
const catchUpSeconds = (ended - catchUpStarted) / 1000
const materialized = (await health(b.url)).materialized
const cpuPerMaterialized = (cpuSeconds(b.child.pid!) - cpuAtListening) / materialized
const loopPerMaterialized = (mainThreadCpuSeconds(b.child.pid!) - loopAtListening) / materialized
const threadsPerMaterialized = [...threadCpuSeconds(b.child.pid!)].map(([name, s]) => [name, (s - (threadsAtListening.get(name) ?? 0)) / materialized] as const)
const withStartUp = materialized / catchUpSeconds
const catchUp = materialized / ((ended - listening) / 1000)
a.child.kill('SIGTERM')
b.child.kill('SIGTERM')
const floor = await materializationFloor()

console.log(`\nKafka at ${brokers}, ${decisions} decisions recorded on A (${failed} failed batches, ${scored.non2xx + scored.errors} closed-loop requests failed), ${onTopic} on the topic, ${distinct} distinct entities, node ${process.version}`)
console.log(`A scores: ${batchRate.toFixed(0)} decisions/s through /v1/score/batch, ${closedLoopRate.toFixed(0)} decisions/s closed-loop /v1/score (${closedLoop} in 10 s)`)
console.log(`B caught up on ${materialized} decisions in ${catchUpSeconds.toFixed(1)} s, start-up included: ${withStartUp.toFixed(0)} decisions/s; once listening (${((ended - listening) / 1000).toFixed(1)} s): ${catchUp.toFixed(0)} decisions/s`)
console.log(`catch-up / scoring: ${(catchUp / batchRate).toFixed(1)}x the batch rate, ${(catchUp / closedLoopRate).toFixed(1)}x the closed-loop rate`)
const us = (seconds: number) => `${(seconds * 1e6).toFixed(0)} us`
console.log(`CPU: ${us(cpuPerScored)} a scored decision (closed loop), ${us(cpuPerMaterialized)} a materialized decision: scoring costs ${(cpuPerScored / cpuPerMaterialized).toFixed(1)}x materializing (target 10x)`)
console.log(`  of which the event loop's thread: ${us(loopScoring / closedLoop)} a scored decision, ${us(loopPerMaterialized)} a materialized one`)
console.log(`  a materialized decision by kind of thread: ${threadsPerMaterialized.filter(([, s]) => s >= 1e-6).sort((x, y) => y[1] - x[1]).map(([name, s]) => `${name} ${us(s)}`).join(', ')}`)
console.log(`materialization floor (bench/materialize-floor.ts: ${floor.mergesPerDecision.toFixed(1)} merges a decision and nothing else): ${us(floor.cpuUs / 1e6)} a decision; a scored decision costs ${(cpuPerScored * 1e6 / floor.cpuUs).toFixed(1)}x the floor`)
// n instances of a cell each scoring r/s spend (n-1)r/m + r/s of their time: the cell's n*r tends to m.
for (const n of [2, 4, 8, 16]) {
  const perInstance = 1 / ((n - 1) / catchUp + 1 / closedLoopRate)
  console.log(`  ${String(n).padStart(2)} instances in a cell: at most ${(n * perInstance).toFixed(0)} decisions/s in all (${perInstance.toFixed(0)} each)`)
}
// A cell's ceiling, by CPU: a core that only materializes applies 1/m decisions a second; cells add up.
const cellCeiling = 1 / cpuPerMaterialized
for (const cells of [1, 2, 4, 8]) console.log(`  ${cells} cell${cells === 1 ? ' ' : 's'}: ceiling ${(cells * cellCeiling).toFixed(0)} decisions/s (${(cells * cellCeiling * cpuPerScored).toFixed(1)} cores of scoring)`)
console.log(`one cell's ceiling by wall rate (n -> infinity): ${catchUp.toFixed(0)} decisions/s`)

/** The least a materializer of this design does for a decision, run on the same topic (bench/materialize-floor.ts). */
async function materializationFloor (): Promise<{ cpuUs: number, mergesPerDecision: number }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'fds-floor-'))
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/materialize-floor.ts'], {
    env: { ...process.env, FLOOR_BROKERS: brokers!, FLOOR_TOPIC: `${env.TOPIC_PREFIX}decisions`, FLOOR_RECORDS: String(onTopic), FLOOR_DIR: dir },
    stdio: ['ignore', 'pipe', 'inherit']
  })
  let out = ''
  child.stdout.on('data', (chunk: Buffer) => { out += chunk.toString() })
  const code = await new Promise(resolve => child.on('exit', resolve))
  rmSync(dir, { recursive: true, force: true })
  if (code !== 0) throw new Error(`materialize-floor exited with ${String(code)}`)
  return JSON.parse(out.trim().split('\n').pop()!)
}
