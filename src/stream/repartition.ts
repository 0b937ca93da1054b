import { stateKey, TAG } from '../stores/keys.js'
import type { BatchWrites } from './batch-writes.js'
import type { ConsumedRecord, EventLog } from './eventlog/event-log.js'
import type { Middleware } from './middleware.js'
import type { Processor } from './processor.js'

/**
 * Repartitioning, as Kafka Streams does through a repartition topic: a processor whose state belongs to one
 * tenant (a tenant's link graph, its model) must see every record of that tenant, so a stage copies its input
 * records to a topic of its own partitioned by tenant, and the processor consumes that topic. Whoever owns a
 * partition of it owns the whole state of its tenants, however many instances share the group.
 *
 * Records keep their key, value and event time; headers say where each came from (topic, partition, offset).
 * The stage is at least once: after a crash between its append and its offset commit it appends a record
 * again. The consumer drops those copies (`repeatedCopiesDropped`, which `byTenant` gives it).
 */
const SOURCE_TOPIC = 'repartition_source_topic'
const SOURCE_PARTITION = 'repartition_source_partition'
const SOURCE_OFFSET = 'repartition_source_offset'

/** The tenant of a record keyed `<tenant>:<id>` (decisions, feedback labels). */
export const tenantOfKey = (key: string): string => key.slice(0, key.indexOf(':'))

/** The stage: every record of `sources` appended to `target`, partitioned by `partitionKeyOf`. */
export function repartitionStage (group: string, sources: string[], target: string, partitionKeyOf: (r: ConsumedRecord) => string): Processor<ConsumedRecord> {
  return {
    group,
    topics: sources,
    decode: r => r,
    process: (r, _record, batch) => {
      batch.emit(target, {
        key: r.key,
        partitionKey: partitionKeyOf(r),
        value: r.value,
        timestamp: r.timestamp,
        headers: { ...r.headers, [SOURCE_TOPIC]: r.topic, [SOURCE_PARTITION]: String(r.partition), [SOURCE_OFFSET]: String(r.offset) }
      })
    }
  }
}

/**
 * A processor whose state belongs to one tenant, fed its sources by tenant: on Kafka through the stage and
 * `target`, dropping the copies the stage appended again; on the embedded log, whose every group has one member
 * (one process), straight from the sources, since a tenant's records already meet there and a copy would only
 * cost an append and a decode more.
 */
export function byTenant<T, L> (log: EventLog, stageGroup: string, sources: string[], target: string, processor: Omit<Processor<T, L>, 'topics'>): Array<Processor<any, any>> {
  if (log.kind === 'embedded') return [{ ...processor, topics: sources }]
  const middleware = [repeatedCopiesDropped(processor.group), ...processor.middleware ?? []]
  return [repartitionStage(stageGroup, sources, target, r => tenantOfKey(r.key)), { ...processor, topics: [target], middleware }]
}

/** The topic a repartitioned record was first appended to (its codec is that topic's). */
export const sourceTopic = (r: ConsumedRecord): string => r.headers[SOURCE_TOPIC] ?? r.topic

/**
 * False for a copy the stage appended again after a crash. Copies of one source partition reach a partition
 * of the repartition topic in source order, so the highest source offset seen there (kept in the consumer's
 * checkpointed state, written with its batch) tells a repeat from a new record.
 */
async function firstCopy (r: ConsumedRecord, writes: BatchWrites, group: string): Promise<boolean> {
  const offset = Number(r.headers[SOURCE_OFFSET])
  if (!Number.isFinite(offset)) return true
  const key = stateKey(TAG.checkpoint, group, 'source', String(r.partition), r.headers[SOURCE_TOPIC]!, r.headers[SOURCE_PARTITION]!)
  const seen = await writes.get(key)
  if (seen !== undefined && offset <= Number(seen.toString())) return false
  writes.put(key, Buffer.from(String(offset)))
  return true
}

/** Middleware of consumer group `group` of a repartition topic: a copy the stage appended again is not processed (firstCopy). */
export function repeatedCopiesDropped (group: string): Middleware {
  return next => async (value, record, batch) => {
    if (await firstCopy(record, batch.writes, group)) await next(value, record, batch)
  }
}
