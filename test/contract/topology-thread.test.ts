import { describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { auth, eventually, healthOf, startTestApp } from '../support/app.js'
import { kafkaBrokersOrSkip, uniqueName } from '../support/kafka.js'
import { caseFlowSuite } from './cases.flow.js'
import { poisonSuite } from './poison.flow.js'
import { webhookEnv, webhookFlowSuite } from './webhooks.flow.js'

// The one-process default runs its topologies in a worker thread, reading and appending through the main
// thread's embedded log: the same flows as on the main thread, with their health in the main /healthz.
const worker = { TOPOLOGY_THREAD: 'worker' }

caseFlowSuite('embedded, topologies in a worker thread', async () => {
  const app = await startTestApp(worker)
  return { a: app, b: app }
})

webhookFlowSuite('embedded, topologies in a worker thread', async receiver => {
  const app = await startTestApp({ ...webhookEnv(receiver), ...worker })
  return { a: app, b: app }
})

poisonSuite('embedded, topologies in a worker thread', () => startTestApp({ RELAY_LINGER_MS: '200', ...worker }))

/** The worker's consumer groups (the case writer, webhook delivery) are on the main /healthz, and catch up. */
async function workerLagOnHealthz (app: App): Promise<void> {
  const scored = await app.server.inject({ method: 'POST', url: '/v1/score', headers: auth(), payload: { event: 'payment', amount: 10, user_id: 'u_lag' } })
  expect(scored.statusCode).toBe(200)
  const lag = await eventually(async () => {
    const health = await healthOf(app) as { lag: Record<string, number> }
    const groups = Object.keys(health.lag)
    const caught = groups.some(g => g.endsWith('case-writer')) && groups.some(g => g.endsWith('webhook-delivery')) && Object.values(health.lag).every(n => n === 0)
    return caught ? health.lag : undefined
  }, 20000, 'every group on /healthz, caught up')
  expect(Object.keys(lag).length).toBeGreaterThan(5)
}

describe('embedded, topologies in a worker thread: lag', () => {
  it("reports the worker's consumer groups' lag on /healthz", async () => {
    const app = await startTestApp(worker)
    try { await workerLagOnHealthz(app) } finally { await app.close() }
  })
})

const brokers = await kafkaBrokersOrSkip('topologies in a worker thread on Kafka')

describe.skipIf(brokers === undefined)('real Kafka, topologies in a worker thread with their own connection', () => {
  caseFlowSuite('kafka, topologies in a worker thread', async () => {
    const env = { TRANSPORT: 'kafka', KAFKA_BROKERS: brokers!.join(','), TOPIC_PREFIX: `${uniqueName('tw')}.`, DEFAULT_TENANT_ID: 'ten_worker_cases', ...worker }
    const [a, b] = await Promise.all([startTestApp(env), startTestApp(env)])
    return { a, b }
  })

  it("reports the worker's consumer groups' lag on /healthz", async () => {
    const app = await startTestApp({ TRANSPORT: 'kafka', KAFKA_BROKERS: brokers!.join(','), TOPIC_PREFIX: `${uniqueName('twl')}.`, ...worker })
    try { await workerLagOnHealthz(app) } finally { await app.close() }
  }, 60000)
})
