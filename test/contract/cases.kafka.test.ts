import { describe } from 'vitest'
import { caseFlowSuite } from './cases.flow.js'
import { startTestApp } from '../support/app.js'
import { kafkaBrokersOrSkip, uniqueName } from '../support/kafka.js'

const brokers = await kafkaBrokersOrSkip('cases on Kafka')

describe.skipIf(brokers === undefined)('two instances on real Kafka', () => {
  caseFlowSuite('kafka', async () => {
    const env = { TRANSPORT: 'kafka', KAFKA_BROKERS: brokers!.join(','), TOPIC_PREFIX: `${uniqueName('c')}.`, DEFAULT_TENANT_ID: 'ten_shared_cases' }
    const [a, b] = await Promise.all([startTestApp(env), startTestApp(env)])
    return { a, b }
  })
})
