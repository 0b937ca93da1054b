import { describe, it } from 'vitest'
import { KafkaEventLog } from '../../src/stream/eventlog/kafka.js'
import { eventLogContract } from './eventlog.contract.js'
import { kafkaBrokersOrSkip, uniqueName } from '../support/kafka.js'

const brokers = await kafkaBrokersOrSkip('EventLog contract on Kafka')
if (brokers === undefined) {
  describe.skip('EventLog contract: kafka (skipped: no broker, reason printed above)', () => { it('needs a broker', () => {}) })
} else {
  eventLogContract('kafka (real broker)', {
    open: async () => new KafkaEventLog({ brokers, clientId: uniqueName('contract') }),
    name: prefix => uniqueName(prefix)
  })
}
