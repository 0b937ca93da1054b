import { Writable } from 'node:stream'
import { Kafka, logLevel, type Admin } from 'kafkajs'
import pino from 'pino'
import { afterAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { KafkaEventLog } from '../../src/stream/eventlog/kafka.js'
import { asyncScorer } from '../../topologies/async-scorer/async-scorer.js'
import { startTopology, type RunningTopology, type TopologyContext } from '../../src/stream/topology.js'
import { auth, eventually, startTestApp, tempDir } from '../support/app.js'
import { startService, stopService, type ServiceProcess } from '../support/child.js'
import { kafkaBrokersOrSkip, uniqueName } from '../support/kafka.js'
import { type ServiceEvent, parseEvent } from '../../src/domain/records/events.js'
import { landsButReportsFailure } from '../support/failing-log.js'

const brokers = await kafkaBrokersOrSkip('restarts and redeliveries on Kafka')

/** kafkajs' own log lines at error level, as a service logs them (namespace = the kafkajs component). */
const kafkajsErrors = (output: string) => output.split('\n').filter(l => l.includes('"namespace"') && l.includes('"level":50'))

async function score (api: App, body: object): Promise<string> {
  const res = await api.server.inject({ method: 'POST', url: '/v1/score', headers: auth(), payload: body })
  expect(res.statusCode).toBe(200)
  return res.json().trace_id as string
}

/** Pairs of users sharing a device: whichever of a pair the async-scorer analyses second gets one score.async. */
async function scorePair (api: App, name: string): Promise<string[]> {
  return [await score(api, { event: 'signup', user_id: `${name}-a`, device_id: `dev-${name}` }), await score(api, { event: 'signup', user_id: `${name}-b`, device_id: `dev-${name}` })]
}

const scoreAsync = (events: ServiceEvent[], traces: string[]) => events.filter(e => e.type === 'score.async' && traces.includes(e.data.trace_id as string))

/** True when `group` has committed the end of every partition of `topic`. */
async function groupAtEnd (admin: Admin, group: string, topic: string): Promise<boolean> {
  const ends = await admin.fetchTopicOffsets(topic)
  const [committed] = await admin.fetchOffsets({ groupId: group, topics: [topic] })
  // An empty partition nobody committed on (-1) is at its end too.
  const at = (partition: number) => Math.max(0, Number(committed!.partitions.find(p => p.partition === partition)?.offset ?? -1))
  return ends.every(e => at(e.partition) === Number(e.high))
}

/**
 * Everything the async-scorer read it has also appended: its repartition stage committed the end of the
 * decisions, and the scorer the end of the copies the stage made (stream/repartition.ts).
 */
async function scorerCaughtUp (admin: Admin, prefix: string, decisions: string, byTenant: string): Promise<true | undefined> {
  return (await groupAtEnd(admin, `${prefix}async-scorer-repartition`, decisions) && await groupAtEnd(admin, `${prefix}async-scorer`, byTenant)) || undefined
}

describe.skipIf(brokers === undefined)('Kafka event log: appends while the producer connects', () => {
  it('every append issued during the first connect succeeds, and each record is on the topic once', async () => {
    const lines: string[] = []
    const logger = pino({ level: 'warn' }, new Writable({ write (chunk, _enc, done) { lines.push(String(chunk)); done() } }))
    const topics = [uniqueName('connect-a'), uniqueName('connect-b')]
    const setup = new KafkaEventLog({ brokers: brokers!, clientId: 'connect-setup' })
    await setup.ensureTopics(topics.map(name => ({ name, partitions: 3 })))
    await setup.close()

    // Consumers' first batches after a restart: appends from several of them before the first one has connected
    // the shared idempotent producer (kafkajs refused them: "The producer is disconnected", then a TypeError
    // from eosManager.releaseBrokerLock while InitProducerId was in flight, records written all the same).
    const log = new KafkaEventLog({ brokers: brokers!, clientId: 'connect-race', logger })
    const results: Array<Promise<unknown>> = []
    try {
      for (let i = 0; i < 60; i++) {
        results.push(log.append(topics[i % 2]!, [{ key: `k${i}`, value: Buffer.from(`v${i}`) }]).then(() => 'ok', (err: Error) => `append ${i}: ${err.message}`))
        if (i % 4 === 3) await new Promise(resolve => setTimeout(resolve, 1))
      }
      expect((await Promise.all(results)).filter(r => r !== 'ok')).toEqual([])
    } finally {
      await log.close()
    }
    // (A just-created topic may answer NOT_LEADER for a moment: kafkajs logs it and retries; not what is tested.)
    expect(lines.filter(l => l.includes("reading 'release'"))).toEqual([])
    const kafka = new Kafka({ clientId: 'connect-check', brokers: brokers!, logLevel: logLevel.NOTHING })
    const admin = kafka.admin()
    await admin.connect()
    try {
      for (const topic of topics) expect((await admin.fetchTopicOffsets(topic)).reduce((n, o) => n + Number(o.high), 0), topic).toBe(30)
    } finally {
      await admin.disconnect()
    }
  })
})

describe.skipIf(brokers === undefined)('a Kafka-mode service restarted on its data directory', () => {
  let api: App | undefined
  let service: ServiceProcess | undefined
  afterAll(async () => {
    if (service !== undefined) await stopService(service)
    await api?.close()
  })

  it('logs no kafkajs error and emits each score.async once, neither lost nor doubled, around the restart', async () => {
    const prefix = `${uniqueName('r')}.`
    const env = { TRANSPORT: 'kafka', KAFKA_BROKERS: brokers!.join(','), TOPIC_PREFIX: prefix, DEFAULT_TENANT_ID: 'ten_restart' }
    // The API taking the decisions runs no topology: decisions pile up on the topic while the service is down.
    api = await startTestApp({ ...env, TOPOLOGIES: 'none' })
    const serviceEnv = { ...env, DATA_DIR: tempDir('fds-restart-'), LOG_LEVEL: 'info' }
    const events: ServiceEvent[] = []
    const sub = await api.log.subscribe({ group: uniqueName('events'), topics: [api.topics.events], onBatch: async rs => { for (const r of rs) events.push(parseEvent(r.value)) } })
    const kafka = new Kafka({ clientId: 'restart-check', brokers: brokers!, logLevel: logLevel.NOTHING })
    const admin = kafka.admin()
    await admin.connect()
    try {
      service = await startService(serviceEnv)
      const before: string[][] = []
      for (let i = 0; i < 3; i++) before.push(await scorePair(api, `before-${i}`))
      await eventually(() => before.every(p => scoreAsync(events, p).length === 1) || undefined, 60000, 'score.async of the pairs scored before the restart')
      await stopService(service)
      const firstOutput = service.output()

      // While it is down: pairs for the async-scorer, flagged payouts for the other topologies, so that every
      // consumer of the restarted service has a backlog and appends as soon as it has joined its group.
      const down: string[][] = []
      for (let i = 0; i < 12; i++) {
        down.push(await scorePair(api, `down-${i}`))
        await score(api, { event: 'payout', amount: 50_000, user_id: `payout-${i}` })
      }
      service = await startService(serviceEnv)
      // Linked to a pair analysed before the restart: the graph survived it.
      const later = await score(api, { event: 'signup', user_id: 'before-0-c', device_id: 'dev-before-0' })
      await eventually(() => scorerCaughtUp(admin, prefix, api!.topics.decisions, api!.topics.asyncScorerByTenant), 60000, 'the async-scorer caught up after the restart')
      await eventually(() => scoreAsync(events, [later]).length === 1 || undefined, 30000, 'score.async of the decision scored after the restart')
      await new Promise(resolve => setTimeout(resolve, 1000)) // anything appended twice arrives too

      expect(firstOutput + service.output()).not.toContain("reading 'release'")
      expect(kafkajsErrors(service.output())).toEqual([])
      // Per pair: how many score.async records, for how many of its decisions (1 and 1 each, nothing lost or doubled).
      const pairs = [...before, ...down]
      const counts = (p: string[]) => { const got = scoreAsync(events, p); return `${got.length} for ${new Set(got.map(e => e.data.trace_id)).size}` }
      expect(pairs.map(counts)).toEqual(pairs.map(() => '1 for 1'))
      for (const p of pairs) expect(scoreAsync(events, p)[0]!.data).toMatchObject({ linked_users: 1, cluster_size: 2, shared: { device: 1 } })
      expect(scoreAsync(events, [later])).toHaveLength(1)
      expect(scoreAsync(events, [later])[0]!.data).toMatchObject({ linked_users: 2, cluster_size: 3, shared: { device: 2 } })
    } finally {
      await sub.close()
      await admin.disconnect()
    }
  })
})

describe.skipIf(brokers === undefined)('async-scorer: a batch delivered again', () => {
  let api: App | undefined
  let scorer: RunningTopology | undefined
  afterAll(async () => {
    await scorer?.stop()
    await api?.close()
  })

  it('appends the events of its first analysis again, none changed and none added', async () => {
    const prefix = `${uniqueName('x')}.`
    // One partition: the pairs reach the scorer as one batch.
    api = await startTestApp({ TRANSPORT: 'kafka', KAFKA_BROKERS: brokers!.join(','), TOPIC_PREFIX: prefix, DEFAULT_TENANT_ID: 'ten_replay', DECISIONS_PARTITIONS: '1', TOPOLOGIES: 'none' })
    const events: ServiceEvent[] = []
    const sub = await api.log.subscribe({ group: uniqueName('events'), topics: [api.topics.events], onBatch: async rs => { for (const r of rs) events.push(parseEvent(r.value)) } })
    const kafka = new Kafka({ clientId: 'replay-check', brokers: brokers!, logLevel: logLevel.NOTHING })
    const admin = kafka.admin()
    await admin.connect()
    try {
      const pairs: string[][] = []
      for (let i = 0; i < 4; i++) pairs.push(await scorePair(api, `replay-${i}`))
      await eventually(async () => (await api!.log.endOffsets(api!.topics.decisions))[0] === 8 || undefined, 30000, 'the decisions on the topic')

      // The first append of score.async events lands but reports a failure (as kafkajs did in the race above):
      // the batch is delivered again, after its graph update was committed.
      let failures = 1
      const log = landsButReportsFailure(api.log, topic => topic === api!.topics.events && failures-- > 0)
      const ctx: TopologyContext = { ...api.runtime, log, config: api.config, codec: api.codec, topics: api.topics, control: api.controlPlane, cases: api.cases, webhooks: api.webhooks, audit: api.audit, clock: api.clock, models: api.modelRegistry }
      scorer = await startTopology(asyncScorer, ctx)
      await eventually(() => scorerCaughtUp(admin, prefix, api!.topics.decisions, api!.topics.asyncScorerByTenant), 60000, 'the async-scorer caught up')
      await new Promise(resolve => setTimeout(resolve, 500))
      expect(failures).toBeLessThan(0)

      for (const p of pairs) {
        const got = scoreAsync(events, p)
        expect(new Set(got.map(e => e.data.trace_id)), `score.async of the pair ${p.join(', ')}`).toEqual(new Set([p[1]]))
        for (const e of got) expect(e).toEqual(got[0])
        expect(got[0]!.data).toMatchObject({ linked_users: 1, cluster_size: 2, shared: { device: 1 } })
      }
    } finally {
      await sub.close()
      await admin.disconnect()
    }
  })
})
