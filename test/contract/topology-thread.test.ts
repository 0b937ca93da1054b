import { describe } from 'vitest'
import { startTestApp } from '../support/app.js'
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

const brokers = await kafkaBrokersOrSkip('topologies in a worker thread on Kafka')

describe.skipIf(brokers === undefined)('real Kafka, topologies in a worker thread with their own connection', () => {
  caseFlowSuite('kafka, topologies in a worker thread', async () => {
    const env = { TRANSPORT: 'kafka', KAFKA_BROKERS: brokers!.join(','), TOPIC_PREFIX: `${uniqueName('tw')}.`, DEFAULT_TENANT_ID: 'ten_worker_cases', ...worker }
    const [a, b] = await Promise.all([startTestApp(env), startTestApp(env)])
    return { a, b }
  })
})
