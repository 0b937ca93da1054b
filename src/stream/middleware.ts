import type { BatchWrites } from './batch-writes.js'
import type { ConsumedRecord } from './eventlog/event-log.js'
import { batchDuration } from './metrics.js'
import { inRecordSpan } from './tracing.js'

/**
 * Processor middleware, shaped as watermill's router middleware: a handler processes one record, a middleware
 * takes the next handler and returns one that wraps it (runs before or after it, or does not call it). Each
 * does one cross-cutting job; the runner (processor.ts) wraps a processor's `process` in them once, when it is
 * built, from what the processor declares, so no processor traces, de-duplicates or counts by hand:
 *
 *   ofLiveTenants -> keyIndexed -> traced -> decoded -> the processor's own `middleware` -> deduplicated(`dedupe`) -> process
 *
 * Retries and dead letters are not middleware here: their unit is the batch, not a record. A record's writes
 * join its batch's (state and checkpoint commit together), so a failed record cannot be retried alone inside
 * the batch; the runner's batch loop runs the batch again record by record, each alone in a batch of its own,
 * and dead-letters the one that keeps failing (ProcessorRunner.deliver). The batch's duration is timed around
 * the batch step for the same reason (`timed`).
 */

/** What a middleware sees of the batch a record is processed in. */
export interface RecordBatch {
  readonly writes: BatchWrites
  /** The W3C traceparent the record's outputs carry on (`traced` sets it while the record is processed). */
  traceparent: string | undefined
}

/** Processes one record of a batch: `value` is the record decoded (before `decoded`, the record itself). */
export type Handler<T, B extends RecordBatch = RecordBatch> = (value: T, record: ConsumedRecord, batch: B) => void | Promise<void>

/**
 * Wraps a handler of records decoded to any type that extends T, in a batch of any kind: one that reads no value
 * (Middleware<unknown>, the default) wraps every handler.
 */
export type Middleware<T = unknown> = <V extends T, B extends RecordBatch>(next: Handler<V, B>) => Handler<V, B>

/** `handler` inside `middleware`, the first listed outermost (it sees a record first); absent ones are left out. */
export function wrap<T, B extends RecordBatch> (handler: Handler<T, B>, ...middleware: Array<Middleware<T> | undefined>): Handler<T, B> {
  return middleware.reduceRight<Handler<T, B>>((next, m) => m === undefined ? next : m(next), handler)
}

/** A handler of consumed records that decodes each once and hands the value to `next`. */
export function decoded<T, B extends RecordBatch> (decode: (record: ConsumedRecord) => T | Promise<T>, next: Handler<T, B>): Handler<ConsumedRecord, B> {
  return async (_value, record, batch) => { await next(await decode(record), record, batch) }
}

/** The tenants whose records are passed over: those the operator deleted (stores/tenants.ts, TenantDirectory). */
export interface ErasedTenants { isErased(tenant: string): boolean }

/**
 * Records of a deleted tenant (its `tenant_id` header), and tombstones (an empty value on a compacted topic, appended
 * when a tenant is erased), are passed over: no processor applies them, so nothing of an erased tenant comes back,
 * not from the decision log's history a new instance replays, nor from a record that was in flight.
 */
export function ofLiveTenants (tenants: ErasedTenants, compacted: ReadonlySet<string>): Middleware {
  return next => (value, record, batch) => {
    const tenant = record.headers.tenant_id
    if (tenant !== undefined && tenants.isErased(tenant)) return
    if (record.value.length === 0 && compacted.has(record.topic)) return
    return next(value, record, batch)
  }
}

/**
 * On a compacted topic, each tenant's record keys are indexed in state (`key`), so erasing a tenant can append a
 * tombstone for every key it has there (stores/erasure.ts) without reading the topic.
 */
export function keyIndexed (compacted: ReadonlySet<string>, key: (tenant: string, topic: string, recordKey: string) => Buffer): Middleware {
  return next => async (value, record, batch) => {
    await next(value, record, batch)
    const tenant = record.headers.tenant_id
    // The partition is kept: a tombstone must land where the record did, whatever key chose it.
    if (tenant !== undefined && compacted.has(record.topic)) batch.writes.put(key(tenant, record.topic, record.key), Buffer.from(String(record.partition)))
  }
}

/**
 * A record that carries a traceparent is processed in a span named `name`, child of that trace, and its outputs
 * carry the span's traceparent on (tracing.ts). A record without one goes straight to `next`: an untraced record
 * pays one header lookup.
 */
export function traced (name: string): Middleware {
  return next => (value, record, batch) => {
    const headers = record.headers
    if (headers?.traceparent === undefined) return next(value, record, batch)
    return inRecordSpan(name, headers, { 'fds.trace_id': headers.trace_id ?? '', 'messaging.destination.name': record.topic }, async traceparent => {
      batch.traceparent = traceparent
      try {
        await next(value, record, batch)
      } finally {
        batch.traceparent = undefined
      }
    })
  }
}

/**
 * De-duplication: `seenKey` names the state key applying a record writes (a decision's by its trace id); a
 * record whose key already holds a value, in the batch or the store, was applied before (a replay, a duplicate)
 * and is passed over. A record it gives no key for goes on.
 */
export function deduplicated<T> (seenKey: (value: T, record: ConsumedRecord) => Buffer | undefined): Middleware<T> {
  return next => async (value, record, batch) => {
    const key = seenKey(value, record)
    if (key !== undefined && await batch.writes.get(key) !== undefined) return
    await next(value, record, batch)
  }
}

/**
 * The batch step of consumer group `group`, timed into fds_processor_batch_duration_seconds when it succeeds
 * (from its first record applied to its commit, the step the runner wraps).
 */
export function timed<A extends unknown[], R> (group: string, step: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args) => {
    const started = performance.now()
    const result = await step(...args)
    batchDuration.observe({ group }, (performance.now() - started) / 1000)
    return result
  }
}
