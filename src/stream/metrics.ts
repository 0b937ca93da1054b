import { AggregatorRegistry, Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'

/** A registry's figures as prom-client's getMetricsAsJSON gives them (what a worker thread sends). */
export type MetricsJson = Awaited<ReturnType<Registry['getMetricsAsJSON']>>

/**
 * The process's Prometheus metrics (prom-client), one registry per thread: the API's HTTP and decisions, the
 * pipeline's relay, consumers and dead letters, webhook deliveries, RocksDB and Node's own figures. Instruments
 * are module-level, as prom-client's are meant to be; the topologies' worker thread sends its registry's
 * figures to the main thread, which serves both (`merged`). Label values are bounded: routes are patterns,
 * rule ids are capped (`boundedRule`).
 */
export const registry = new Registry()
collectDefaultMetrics({ register: registry, prefix: 'fds_', eventLoopMonitoringPrecision: 20 })

const seconds = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

export const httpDuration = new Histogram({
  name: 'fds_http_request_duration_seconds',
  help: 'HTTP requests by method, route pattern and status code.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: seconds,
  registers: [registry]
})

export const decisionsTotal = new Counter({
  name: 'fds_decisions_total',
  help: 'Decisions answered, by action, risk level and mode.',
  labelNames: ['action', 'risk_level', 'mode'] as const,
  registers: [registry]
})

export const ruleMatchesTotal = new Counter({
  name: 'fds_rule_matches_total',
  help: 'Rule matches of answered decisions, by rule id and how it ran (enforce or shadow); ids past the first 500 count as "other".',
  labelNames: ['rule', 'mode'] as const,
  registers: [registry]
})

const MAX_RULE_LABELS = 500
const ruleLabels = new Set<string>()
/** A rule id as a label value: the first MAX_RULE_LABELS distinct ids as they are, later ones "other". */
export function boundedRule (id: string): string {
  if (ruleLabels.has(id)) return id
  if (ruleLabels.size >= MAX_RULE_LABELS) return 'other'
  ruleLabels.add(id)
  return id
}

export const activeVersions = new Gauge({
  name: 'fds_active_version_info',
  help: 'The model and ruleset versions decisions were last answered with, by mode (1 for the current one).',
  labelNames: ['kind', 'mode', 'version'] as const,
  registers: [registry]
})

export const outboxPending = new Gauge({ name: 'fds_outbox_pending', help: 'Decisions durable locally and not yet on the decisions topic.', registers: [registry] })

export const publishLatency = new Histogram({
  name: 'fds_outbox_publish_latency_seconds',
  help: 'From a decision written to its record acknowledged by the event log.',
  buckets: seconds,
  registers: [registry]
})

export const consumerLag = new Gauge({
  name: 'fds_consumer_lag_records',
  help: 'Records not yet consumed, by consumer group and partition ("all" where the transport sums them).',
  labelNames: ['group', 'partition'] as const,
  registers: [registry]
})

export const batchDuration = new Histogram({
  name: 'fds_processor_batch_duration_seconds',
  help: 'Processor batches, from the first record applied to the batch committed, by consumer group.',
  labelNames: ['group'] as const,
  buckets: seconds,
  registers: [registry]
})

export const deadLetteredTotal = new Counter({
  name: 'fds_dead_lettered_total',
  help: 'Records sent to the dead-letter topic, by component.',
  labelNames: ['component'] as const,
  registers: [registry]
})

export const webhookDeliveriesTotal = new Counter({
  name: 'fds_webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts by outcome (succeeded, retrying, failed: dead-lettered) and attempt number (1..12).',
  labelNames: ['outcome', 'attempt'] as const,
  registers: [registry]
})

export const rocksdb = new Gauge({
  name: 'fds_rocksdb',
  help: 'RocksDB figures of the local state: memtable bytes, pending compaction bytes, block cache hit ratio.',
  labelNames: ['db', 'figure'] as const,
  registers: [registry]
})

/** The figures of other registries (the worker thread's), as prom-client's JSON, merged with this one's. */
export async function merged (others: MetricsJson[]): Promise<string> {
  if (others.length === 0) return await registry.metrics()
  const all = AggregatorRegistry.aggregate([await registry.getMetricsAsJSON(), ...others])
  return await all.metrics()
}
