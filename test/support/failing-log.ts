import type { EventLog } from '../../src/stream/eventlog/event-log.js'

/**
 * The log as kafkajs showed it in a race: an append lands, then reports a failure, while `failNext(topic)`
 * says so (it is asked once per append, after the records are written).
 */
export function landsButReportsFailure (inner: EventLog, failNext: (topic: string) => boolean): EventLog {
  return {
    kind: inner.kind,
    ensureTopics: specs => inner.ensureTopics(specs),
    endOffsets: topic => inner.endOffsets(topic),
    subscribe: options => inner.subscribe(options),
    close: async () => {},
    append: async (topic, records) => {
      await inner.append(topic, records)
      if (failNext(topic)) throw new Error('acknowledged, reported failed')
    }
  }
}
