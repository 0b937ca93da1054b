import { Kafka, logLevel, type Admin } from 'kafkajs'
import { afterAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { auth, eventually, startTestApp, tempDir } from '../support/app.js'
import { startTopology, stopService, type ServiceProcess } from '../support/child.js'
import { kafkaBrokersOrSkip, uniqueName } from '../support/kafka.js'
import { type ServiceEvent, parseEvent } from '../../src/domain/records/events.js'

const brokers = await kafkaBrokersOrSkip('topologies scaled to two instances on Kafka')
const DAY = 86_400_000

/** Members of a consumer group once it is stable. */
async function stableMembers (admin: Admin, group: string): Promise<number> {
  const { groups: [g] } = await admin.describeGroups([group])
  return g?.state === 'Stable' ? g.members.length : 0
}

/** Records of `topic` not yet committed by `group`. */
async function lag (admin: Admin, group: string, topic: string): Promise<number> {
  const ends = await admin.fetchTopicOffsets(topic)
  const [committed] = await admin.fetchOffsets({ groupId: group, topics: [topic] })
  let total = 0
  for (const e of ends) {
    const c = Number(committed?.partitions.find(p => p.partition === e.partition)?.offset ?? -1)
    total += Number(e.offset) - Math.max(0, c)
  }
  return total
}

describe.skipIf(brokers === undefined)('async-scorer and feedback with two instances each on real Kafka', () => {
  let api: App | undefined
  let admin: Admin | undefined
  const processes: ServiceProcess[] = []
  afterAll(async () => {
    for (const p of processes) await stopService(p)
    await admin?.disconnect()
    await api?.close()
  })

  it('finds every link and learns every label and decision, as one instance would', async () => {
    const prefix = `${uniqueName('x')}.`
    const env = { TRANSPORT: 'kafka', KAFKA_BROKERS: brokers!.join(','), TOPIC_PREFIX: prefix, DEFAULT_TENANT_ID: 'ten_scaled', MODEL_PUBLISH_INTERVAL_MS: '200', LABEL_MATURITY_DAYS: '1' }
    // The API records decisions by its clock: two days back, so that moving it on a day and a half matures them
    // (labels are learned when their decision matures) without stamping a record in the broker's future.
    let now = Date.now() - 2 * DAY
    api = await startTestApp({ ...env, TOPOLOGIES: 'none' }, { clock: () => now })
    admin = new Kafka({ clientId: 'scale-out-test', brokers: brokers!, logLevel: logLevel.NOTHING }).admin()
    await admin.connect()
    for (const name of ['async-scorer', 'async-scorer', 'feedback', 'feedback', 'case-opener']) {
      processes.push(await startTopology(name, { ...env, DATA_DIR: tempDir('fds-scaled-'), LOG_LEVEL: 'info' }))
    }
    // Both instances of each own partitions before any traffic (a partition that moves takes no state along).
    for (const group of ['async-scorer', 'feedback-trainer']) {
      await eventually(async () => await stableMembers(admin!, prefix + group) === 2 || undefined, 60000, `two members in ${group}`)
    }
    const events: ServiceEvent[] = []
    const sub = await api.log.subscribe({ group: uniqueName('events'), topics: [api.topics.events], onBatch: async rs => { for (const r of rs) events.push(parseEvent(r.value)) } })
    const call = (method: 'GET' | 'POST', url: string, payload?: object) => api!.server.inject({ method, url, headers: auth(), ...(payload === undefined ? {} : { payload }) })
    try {
      // Pairs of users sharing a device; the decisions topic spreads them over its partitions (keyed by trace).
      const pairs = 12
      const firsts: string[] = []
      for (let i = 0; i < pairs; i++) firsts.push((await call('POST', '/v1/score', { event: 'payment', amount: 40, user_id: `a-${i}`, device_id: `shared-${i}` })).json().trace_id)
      const onTopic = async (topic: string) => (await admin!.fetchTopicOffsets(prefix + topic)).reduce((n, p) => n + Number(p.offset), 0)
      await eventually(async () => await onTopic('decisions') === pairs || undefined, 60000, 'first decisions on the topic')
      await eventually(async () => await onTopic('async-scorer-by-tenant') === pairs || undefined, 60000, 'first decisions repartitioned')
      await eventually(async () => await lag(admin!, prefix + 'async-scorer-repartition', prefix + 'decisions') === 0 &&
        await lag(admin!, prefix + 'async-scorer', prefix + 'async-scorer-by-tenant') === 0 ? true : undefined, 60000, 'first decisions analysed')
      const seconds: string[] = []
      for (let i = 0; i < pairs; i++) seconds.push((await call('POST', '/v1/score', { event: 'payment', amount: 40, user_id: `b-${i}`, device_id: `shared-${i}` })).json().trace_id)
      const deferred = await eventually(() => {
        const found = seconds.map(t => events.find(e => e.type === 'score.async' && e.data.trace_id === t))
        return found.every(e => e !== undefined) ? found : undefined
      }, 60000, 'a score.async event for every second decision of a pair')
      for (const e of deferred) expect(e!.data).toMatchObject({ linked_users: 1, shared: { device: 1 } })

      // Fraud labels on the first decisions: the tenant's one trainer learns them all (two would split them).
      const labelled = firsts.slice(0, 6)
      for (const trace of labelled) {
        const id = await eventually(async () => (await call('POST', '/v1/cases', { trace_id: trace, reason: 'chargeback' })).json().id, 30000, 'case opened')
        expect((await call('POST', `/v1/cases/${id}/disposition`, { outcome: 'fraud', analyst: 'ana' })).statusCode).toBe(200)
      }
      // The labels reach the trainer by another path than the decisions (the case writer, then the feedback
      // topic): a label that arrived after its decision matured would be learned a second time, as a correction.
      await eventually(async () => await onTopic('feedback') === labelled.length || undefined, 60000, 'labels on the topic')
      await eventually(async () => await lag(admin!, prefix + 'feedback-repartition', prefix + 'feedback') === 0 &&
        await lag(admin!, prefix + 'feedback-trainer', prefix + 'feedback-by-tenant') === 0 ? true : undefined, 60000, 'labels held by the trainer')
      // A day and a half on, one more decision moves the tenant's watermark: the 24 before it mature, the 6
      // labelled ones as frauds, the others as legitimate, all in the tenant's one trainer (two would split them).
      now += 1.5 * DAY
      await call('POST', '/v1/score', { event: 'payment', amount: 40, user_id: 'watermark' })
      const decisions = 2 * pairs
      const model = await eventually(async () => {
        const m = (await call('GET', '/v1/risk_settings')).json().model
        return m.trained_labels >= decisions ? m : undefined
      }, 60000, 'a model that learned every decision')
      expect(model.trained_labels).toBe(decisions)
    } catch (err) {
      console.log(`${events.length} events`, events.map(e => e.type + ' ' + JSON.stringify(e.data)).join('\n'))
      for (const [g, t] of [['async-scorer-repartition', 'decisions'], ['async-scorer', 'async-scorer-by-tenant'], ['feedback-repartition', 'decisions'], ['feedback-trainer', 'feedback-by-tenant']]) {
        console.log(g, 'lag', await lag(admin!, prefix + g, prefix + t), 'on topic', (await admin!.fetchTopicOffsets(prefix + t)).map(p => p.offset).join(','))
      }
      for (const p of processes) console.log(p.output().split('\n').filter(l => /"level":[45]/i.test(l) && !/rebalancing|not aware|Limiting retries/.test(l)).slice(0, 5).join('\n'))
      throw err
    } finally {
      await sub.close()
    }
  }, 240_000)
})
