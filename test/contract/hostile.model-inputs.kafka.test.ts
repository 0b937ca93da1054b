import { describe } from 'vitest'
import { hostileModelInputsSuite } from './hostile.model-inputs.flow.js'
import { startTestApp } from '../support/app.js'
import { kafkaBrokersOrSkip, uniqueName } from '../support/kafka.js'

const brokers = await kafkaBrokersOrSkip('hostile model inputs on Kafka')

describe.skipIf(brokers === undefined)('real Kafka', () => {
  hostileModelInputsSuite('kafka', () => startTestApp({ TRANSPORT: 'kafka', KAFKA_BROKERS: brokers!.join(','), TOPIC_PREFIX: `${uniqueName('mi')}.` }))
})
