import { describe } from 'vitest'
import { startTestApp } from '../support/app.js'
import { kafkaBrokersOrSkip, uniqueName } from '../support/kafka.js'
import { webhookEnv, webhookFlowSuite } from './webhooks.flow.js'

const brokers = await kafkaBrokersOrSkip('webhooks on Kafka')

describe.skipIf(brokers === undefined)('two instances on real Kafka', () => {
  webhookFlowSuite('kafka', async receiver => {
    const env = { ...webhookEnv(receiver), TRANSPORT: 'kafka', KAFKA_BROKERS: brokers!.join(','), TOPIC_PREFIX: `${uniqueName('w')}.`, DEFAULT_TENANT_ID: 'ten_shared_webhooks' }
    const [a, b] = await Promise.all([startTestApp(env), startTestApp(env)])
    return { a, b }
  })
})
