import { describe } from 'vitest'
import { hostileLearningSuite, LEARNING_ENV } from './hostile.learning.flow.js'
import { startTestApp } from '../support/app.js'
import { kafkaBrokersOrSkip, uniqueName } from '../support/kafka.js'

const brokers = await kafkaBrokersOrSkip('hostile learning on Kafka')

describe.skipIf(brokers === undefined)('real Kafka', () => {
  hostileLearningSuite('kafka', clock => startTestApp({ ...LEARNING_ENV, TRANSPORT: 'kafka', KAFKA_BROKERS: brokers!.join(','), TOPIC_PREFIX: `${uniqueName('hl')}.` }, { clock }))
})
