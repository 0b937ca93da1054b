import { describe } from 'vitest'
import { hostileRulesSuite } from './hostile.rules.flow.js'
import { startTestApp } from '../support/app.js'
import { kafkaBrokersOrSkip, uniqueName } from '../support/kafka.js'

const brokers = await kafkaBrokersOrSkip('hostile rules on Kafka')

describe.skipIf(brokers === undefined)('real Kafka', () => {
  hostileRulesSuite('kafka', () => startTestApp({ TRANSPORT: 'kafka', KAFKA_BROKERS: brokers!.join(','), TOPIC_PREFIX: `${uniqueName('hr')}.` }))
})
