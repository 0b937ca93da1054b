/**
 * The Kafka client's own cost, kafkajs next to @platformatic/kafka, in this process against a running broker:
 * CPU time of this process (the broker's is not counted) and wall time to produce N decision-sized records
 * the way the relay does (idempotent, acks=all, sends of SEND records, one in flight) and to consume them
 * with GROUPS consumer groups, as the in-process topologies do. Runs alternate, each on its own topic.
 *   BENCH_KAFKA_BROKERS=127.0.0.1:19092 npm run bench:kafka-clients   (BENCH_RECORDS=40000, BENCH_ROUNDS=2, BENCH_SEND=32)
 */
import { randomBytes } from 'node:crypto'
import { Kafka, logLevel } from 'kafkajs'
import { Admin, Consumer, Producer } from '@platformatic/kafka'

const brokers = (process.env.BENCH_KAFKA_BROKERS ?? '').split(',').filter(b => b !== '')
if (brokers.length === 0) throw new Error('set BENCH_KAFKA_BROKERS to a running broker (npm run kafka:local: 127.0.0.1:19092)')
const N = Number(process.env.BENCH_RECORDS ?? 40_000)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2)
const SEND = Number(process.env.BENCH_SEND ?? 32)
const GROUPS = 4
const PARTITIONS = 3
const value = randomBytes(1400)
const records = Array.from({ length: N }, (_, i) => ({ key: `trace_${i.toString(36).padStart(12, '0')}`, headers: { origin: 'org_bench', seq: String(i), trace_id: `trace_${i}` } }))

interface Figures { produceCpuUs: number, produceMs: number, consumeCpuUs: number, consumeMs: number }

/** CPU microseconds of this process and wall milliseconds that `run` took. */
async function timed (run: () => Promise<void>): Promise<{ cpuUs: number, ms: number }> {
  const cpu = process.cpuUsage()
  const t0 = performance.now()
  await run()
  const used = process.cpuUsage(cpu)
  return { cpuUs: used.user + used.system, ms: performance.now() - t0 }
}

async function kafkajsRound (topic: string): Promise<Figures> {
  const kafka = new Kafka({ clientId: 'bench', brokers, logLevel: logLevel.NOTHING })
  const admin = kafka.admin()
  await admin.connect()
  await admin.createTopics({ topics: [{ topic, numPartitions: PARTITIONS }] })
  await admin.disconnect()
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 })
  await producer.connect()
  const produced = await timed(async () => {
    for (let i = 0; i < N; i += SEND) {
      await producer.send({ topic, acks: -1, messages: records.slice(i, i + SEND).map(r => ({ key: r.key, value, headers: r.headers })) })
    }
  })
  await producer.disconnect()
  const consumers = Array.from({ length: GROUPS }, (_, g) => kafka.consumer({ groupId: `${topic}-g${g}`, maxWaitTimeInMs: 100 }))
  const consumed = await timed(async () => {
    await Promise.all(consumers.map(async consumer => {
      let seen = 0
      await consumer.connect()
      await consumer.subscribe({ topics: [topic], fromBeginning: true })
      await new Promise<void>(resolve => {
        void consumer.run({
          autoCommit: false,
          eachBatch: async ({ batch }) => {
            for (const m of batch.messages) { if (m.value === null) throw new Error('no value'); seen++ }
            await consumer.commitOffsets([{ topic: batch.topic, partition: batch.partition, offset: String(Number(batch.lastOffset()) + 1) }])
            if (seen >= N) resolve()
          }
        })
      })
    }))
  })
  await Promise.all(consumers.map(c => c.disconnect()))
  return { produceCpuUs: produced.cpuUs, produceMs: produced.ms, consumeCpuUs: consumed.cpuUs, consumeMs: consumed.ms }
}

async function platformaticRound (topic: string): Promise<Figures> {
  const admin = new Admin({ clientId: 'bench', bootstrapBrokers: brokers })
  await admin.createTopics({ topics: [topic], partitions: PARTITIONS, replicas: 1 })
  await admin.close()
  const producer = new Producer({ clientId: 'bench', bootstrapBrokers: brokers, idempotent: true, acks: -1 })
  const produced = await timed(async () => {
    for (let i = 0; i < N; i += SEND) {
      await producer.send({ messages: records.slice(i, i + SEND).map(r => ({ topic, key: Buffer.from(r.key), value, headers: new Map(Object.entries(r.headers).map(([k, v]) => [Buffer.from(k), Buffer.from(v)])) })) })
    }
  })
  await producer.close()
  const consumers = Array.from({ length: GROUPS }, (_, g) => new Consumer({ clientId: 'bench', groupId: `${topic}-g${g}`, bootstrapBrokers: brokers, maxWaitTime: 100 }))
  const consumed = await timed(async () => {
    await Promise.all(consumers.map(async consumer => {
      const stream = await consumer.consume({ topics: [topic], mode: 'earliest', autocommit: false })
      let seen = 0
      await new Promise<void>(resolve => {
        stream.on('data', m => {
          if (m.value === undefined) throw new Error('no value')
          if (++seen % 500 === 0 || seen >= N) void m.commit()
          if (seen >= N) resolve()
        })
      })
      await stream.close()
    }))
  })
  await Promise.all(consumers.map(c => c.close(true)))
  return { produceCpuUs: produced.cpuUs, produceMs: produced.ms, consumeCpuUs: consumed.cpuUs, consumeMs: consumed.ms }
}

const run = Date.now().toString(36)
const results: Record<string, Figures[]> = { kafkajs: [], '@platformatic/kafka': [] }
for (let round = 0; round < ROUNDS; round++) {
  results.kafkajs!.push(await kafkajsRound(`bench-clients-${run}-kafkajs-${round}`))
  results['@platformatic/kafka']!.push(await platformaticRound(`bench-clients-${run}-platformatic-${round}`))
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const summary = Object.fromEntries(Object.entries(results).map(([name, rs]) => [name, {
  produceUs: median(rs.map(r => r.produceCpuUs)) / N,
  producePerS: N / (median(rs.map(r => r.produceMs)) / 1000),
  consumeUs: median(rs.map(r => r.consumeCpuUs)) / (N * GROUPS),
  consumePerS: N * GROUPS / (median(rs.map(r => r.consumeMs)) / 1000)
}]))
console.log(`\n${N} records of ${value.length} bytes, sends of ${SEND} (idempotent, acks=all), ${GROUPS} consumer groups, ${PARTITIONS} partitions, median of ${ROUNDS} alternating rounds, node ${process.version}`)
console.log(`${'client'.padEnd(22)} ${'produce CPU us/record'.padStart(22)} ${'produce records/s'.padStart(18)} ${'consume CPU us/record'.padStart(22)} ${'consume records/s'.padStart(18)}`)
for (const [name, s] of Object.entries(summary)) {
  console.log(`${name.padEnd(22)} ${s.produceUs.toFixed(1).padStart(22)} ${s.producePerS.toFixed(0).padStart(18)} ${s.consumeUs.toFixed(1).padStart(22)} ${s.consumePerS.toFixed(0).padStart(18)}`)
}
const [a, b] = [summary.kafkajs!, summary['@platformatic/kafka']!]
console.log(`@platformatic/kafka / kafkajs CPU per record: produce ${(b.produceUs / a.produceUs).toFixed(2)}x, consume ${(b.consumeUs / a.consumeUs).toFixed(2)}x`)
