import { Kafka, logLevel } from 'kafkajs'
import { afterAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { RecordRejected } from '../../src/stream/eventlog/event-log.js'
import { KafkaEventLog } from '../../src/stream/eventlog/kafka.js'
import { auth, eventually, startTestApp } from '../support/app.js'
import { kafkaBrokersOrSkip, uniqueName } from '../support/kafka.js'

const brokers = await kafkaBrokersOrSkip('Kafka message size limits')

/** Creates `topic` with a small max.message.bytes, as an operator may have configured it. */
async function createTopic (topic: string, maxMessageBytes: number, partitions = 6): Promise<void> {
  const admin = new Kafka({ brokers: brokers!, logLevel: logLevel.NOTHING }).admin()
  await admin.connect()
  try {
    // kafkajs' own leader wait fails on a transient UNKNOWN_TOPIC_OR_PARTITION: wait for leaders here instead.
    await admin.createTopics({ waitForLeaders: false, topics: [{ topic, numPartitions: partitions, configEntries: [{ name: 'max.message.bytes', value: String(maxMessageBytes) }] }] })
    await eventually(async () => {
      try {
        const [meta] = (await admin.fetchTopicMetadata({ topics: [topic] })).topics
        return meta!.partitions.length === partitions && meta!.partitions.every(p => p.leader >= 0)
      } catch {
        return undefined
      }
    }, 30000, `leaders of ${topic}`)
  } finally {
    await admin.disconnect()
  }
}

describe.skipIf(brokers === undefined)('Kafka message size limits', () => {
  const apps: App[] = []
  afterAll(async () => { await Promise.all(apps.map(a => a.close())) })

  it('reads max.message.bytes from the topic and reports a record over it as RecordRejected', async () => {
    const topic = uniqueName('small')
    await createTopic(topic, 20_000, 1)
    const log = new KafkaEventLog({ brokers: brokers!, clientId: 'limits-test' })
    try {
      expect(await log.maxAppendBytes(topic)).toBe(20_000)
      await log.append(topic, [{ key: 'ok', value: Buffer.alloc(5_000) }])
      await expect(log.append(topic, [{ key: 'big', value: Buffer.alloc(40_000) }])).rejects.toBeInstanceOf(RecordRejected)
    } finally {
      await log.close()
    }
  })

  it('caps relay batches below the decisions topic limit, and dead-letters an entry the broker refuses', async () => {
    const prefix = `${uniqueName('lim')}.`
    await createTopic(`${prefix}decisions`, 40_000)
    const app = await startTestApp({ TRANSPORT: 'kafka', KAFKA_BROKERS: brokers!.join(','), TOPIC_PREFIX: prefix, RELAY_LINGER_MS: '300' })
    apps.push(app)
    const published = new Set<string>()
    const letters: Array<Record<string, string>> = []
    const subs = [
      await app.log.subscribe({ group: uniqueName('d'), topics: [app.topics.decisions], onBatch: async rs => { for (const r of rs) published.add(r.headers.trace_id!) } }),
      await app.log.subscribe({ group: uniqueName('dl'), topics: [app.topics.deadLetters], onBatch: async rs => { for (const r of rs) letters.push(r.headers) } })
    ]
    const score = async (payload: object) => (await app.server.inject({ method: 'POST', url: '/v1/score', headers: auth(), payload })).json()
    // 60 decisions of ~20 KB: one append of them all would be ~1.2 MB; capped at 36,000 bytes they go one or so at a time.
    const medium = { event: 'payment', user_id: 'lim-1', blob: 'm'.repeat(8000), blob2: 'n'.repeat(8000), blob3: 'o'.repeat(3000) }
    const traces = (await Promise.all(Array.from({ length: 60 }, () => score(medium)))).map(d => d.trace_id as string)
    // One decision larger than the topic accepts at all (60 KB), then a small one after it.
    const huge = await score({ event: 'payment', user_id: 'lim-2', ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`b${i}`, 'h'.repeat(7000)])) })
    const small = await score({ event: 'login', user_id: 'lim-3' })
    await eventually(() => [...traces, small.trace_id].every(t => published.has(t)), 60000, 'every decision that fits on the stream')
    const letter = await eventually(() => letters.find(h => h.source === 'outbox'), 30000, 'the refused entry dead-lettered')
    expect(letter.reason).toMatch(/MESSAGE_TOO_LARGE|RECORD_LIST_TOO_LARGE/)
    expect(published.has(huge.trace_id)).toBe(false)
    // The decision itself stays readable where it was recorded.
    expect((await app.server.inject({ method: 'GET', url: `/v1/transactions/${huge.trace_id}`, headers: auth() })).statusCode).toBe(200)
    await Promise.all(subs.map(s => s.close()))
  })
})
