import { describe } from 'vitest'
import { hostileSuite } from './hostile.flow.js'
import { startTestApp } from '../support/app.js'
import { kafkaBrokersOrSkip, uniqueName } from '../support/kafka.js'

const brokers = await kafkaBrokersOrSkip('hostile input on Kafka')

describe.skipIf(brokers === undefined)('real Kafka', () => {
  hostileSuite('kafka', () => startTestApp({ TRANSPORT: 'kafka', KAFKA_BROKERS: brokers!.join(','), TOPIC_PREFIX: `${uniqueName('h')}.` }, { listen: true }))
})
