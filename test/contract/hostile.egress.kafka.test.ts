import { describe } from 'vitest'
import { hostileEgressSuite, egressEnv } from './hostile.egress.flow.js'
import { startTestApp } from '../support/app.js'
import { kafkaBrokersOrSkip, uniqueName } from '../support/kafka.js'

const brokers = await kafkaBrokersOrSkip('hostile webhook destinations on Kafka')

// On Kafka the endpoints, deliveries and replays travel through the broker's topics, and the delivery topology
// reads its own copy of the configuration: the policy must hold there too.
describe.skipIf(brokers === undefined)('real Kafka', () => {
  hostileEgressSuite('kafka', receiver => startTestApp({ ...egressEnv(receiver), TRANSPORT: 'kafka', KAFKA_BROKERS: brokers!.join(','), TOPIC_PREFIX: `${uniqueName('he')}.` }, { listen: true }))
})
