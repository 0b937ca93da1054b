import { describe } from 'vitest'
import { poisonSuite } from './poison.flow.js'
import { startTestApp } from '../support/app.js'
import { kafkaBrokersOrSkip, uniqueName } from '../support/kafka.js'

const brokers = await kafkaBrokersOrSkip('poison records on Kafka')

describe.skipIf(brokers === undefined)('real Kafka', () => {
  poisonSuite('kafka', () => startTestApp({ TRANSPORT: 'kafka', KAFKA_BROKERS: brokers!.join(','), TOPIC_PREFIX: `${uniqueName('p')}.`, RELAY_LINGER_MS: '200' }))
})
