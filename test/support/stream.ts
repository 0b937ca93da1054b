import type { ConsumedRecord, EventLog } from '../../src/stream/eventlog/event-log.js'
import { plainProtobufCodec, type DecisionCodec } from '../../src/stream/decision-codec.js'
import type { TransactionRecord } from '../../src/domain/records/decisions.js'
import { eventually } from './app.js'

/**
 * A de-duplicating consumer of the decisions stream, as a downstream data team would write one:
 * reads from the beginning under a fresh group and keeps the first record per trace_id.
 * Returns how many raw records it read, so tests can also report duplicates.
 */
export async function readDecisionStream (log: EventLog, topic: string, group: string, expected: Iterable<string>, codec: DecisionCodec = plainProtobufCodec, timeoutMs = 30000) {
  const want = new Set(expected)
  const byTrace = new Map<string, TransactionRecord>()
  let raw = 0
  let done: () => void = () => {}
  const finished = new Promise<void>(resolve => { done = resolve })
  const subscription = await log.subscribe({
    group,
    topics: [topic],
    fromBeginning: true,
    onBatch: async records => {
      for (const r of records) {
        raw++
        const record = await codec.decode(topic, r.value)
        if (!byTrace.has(record.trace_id)) byTrace.set(record.trace_id, record)
        want.delete(record.trace_id)
      }
      if (want.size === 0) done()
    }
  })
  const timer = new Promise<void>(resolve => setTimeout(resolve, timeoutMs))
  await Promise.race([finished, timer])
  // Let a moment pass so duplicates still in flight are counted too.
  await new Promise(resolve => setTimeout(resolve, 300))
  await subscription.close()
  return { byTrace, raw, missing: [...want] }
}

/** Every record of partition 0 of `topic` up to its end when called, through a group of its own. */
export async function readTopic (log: EventLog, topic: string): Promise<ConsumedRecord[]> {
  const out: ConsumedRecord[] = []
  const end = (await log.endOffsets(topic))[0]!
  const sub = await log.subscribe({ group: `reader-${Math.random()}`, topics: [topic], onBatch: async rs => { out.push(...rs) } })
  await eventually(() => out.length >= end || undefined, 5000, `${topic} read`)
  await sub.close()
  return out
}
