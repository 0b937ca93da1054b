import { describe } from 'vitest'
import { storageFaultSuite } from './hostile.storage.flow.js'
import { startTestApp } from '../support/app.js'
import { kafkaBrokersOrSkip, uniqueName } from '../support/kafka.js'

const brokers = await kafkaBrokersOrSkip('storage faults on Kafka')

describe.skipIf(brokers === undefined)('real Kafka', () => {
  storageFaultSuite('kafka', () => startTestApp({ TRANSPORT: 'kafka', KAFKA_BROKERS: brokers!.join(','), TOPIC_PREFIX: `${uniqueName('sf')}.` }))
})
