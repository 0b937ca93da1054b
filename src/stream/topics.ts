import type { EventLog, TopicSpec } from './eventlog/event-log.js'

/**
 * The decisions topic of a cell (docs/architecture.md#cells): cell 0's is `decisions`, as it was before cells,
 * cell n's `decisions.cell-n`. An instance materializes its own cell's only.
 */
export const decisionsTopicOf = (prefix: string, cell: number): string => cell === 0 ? `${prefix}decisions` : `${prefix}decisions.cell-${cell}`

/** Every topic name, under the configured prefix, for an instance of cell `cell` of `cells`. */
export function topicNames (config: { topicPrefix: string, cell?: number, cells?: number }) {
  const p = config.topicPrefix
  return {
    prefix: p,
    /** This instance's cell's decisions: what its relay publishes and its materializer applies. */
    decisions: decisionsTopicOf(p, config.cell ?? 0),
    /** Every cell's decisions: what the topologies consume (they serve every cell). */
    allDecisions: Array.from({ length: config.cells ?? 1 }, (_, cell) => decisionsTopicOf(p, cell)),
    events: `${p}events`,
    rulesets: `${p}rulesets`,
    caseCommands: `${p}case-commands`,
    cases: `${p}cases`,
    overrides: `${p}overrides`,
    feedback: `${p}feedback`,
    webhooks: `${p}webhooks`,
    webhookDeliveries: `${p}webhook-deliveries`,
    webhookDeadLetters: `${p}webhook-dead-letters`,
    audit: `${p}audit`,
    apiKeys: `${p}api-keys`,
    tenants: `${p}tenants`,
    dashboardUsers: `${p}dashboard-users`,
    dashboardSessions: `${p}dashboard-sessions`,
    billing: `${p}billing`,
    clientCas: `${p}client-cas`,
    signals: `${p}signals`,
    models: `${p}models`,
    /** Repartition topics (stream/repartition.ts): decisions, and decisions with labels, partitioned by tenant. */
    asyncScorerByTenant: `${p}async-scorer-by-tenant`,
    feedbackByTenant: `${p}feedback-by-tenant`,
    /** Records no consumer (or the outbox relay) could process, with source and reason in their headers. */
    deadLetters: `${p}dead-letters`
  }
}
export type TopicNames = ReturnType<typeof topicNames>

/**
 * Creates the service's topics when missing. `case-commands` and `cases` share a partition count (case ownership).
 * `decisions` is what every instance rebuilds its state from, and its records carry their event time: with the
 * log's default retention a backfill of events older than seven days would be deleted within minutes, before
 * an instance started later could materialize it; it keeps `decisionsRetentionMs` (-1: forever). The
 * repartition topics are stamped when appended, so the default retention counts from then.
 */
export async function ensureServiceTopics (log: EventLog, config: TopicConfig): Promise<void> {
  await log.ensureTopics(serviceTopics(config))
}

/** The compacted topics' names (erasure tombstones their keys: stores/erasure.ts). */
export const compactedTopics = (config: TopicConfig): ReadonlySet<string> =>
  new Set(serviceTopics(config).filter(t => t.compacted === true).map(t => t.name))

type TopicConfig = { topicPrefix: string, decisionsPartitions: number, decisionsRetentionMs: number, cell?: number, cells?: number }

function serviceTopics (config: TopicConfig): TopicSpec[] {
  const t = topicNames(config)
  return [
    ...t.allDecisions.map(name => ({ name, partitions: config.decisionsPartitions, retentionMs: config.decisionsRetentionMs })),
    { name: t.rulesets, partitions: 3, compacted: true },
    { name: t.events, partitions: 6 },
    { name: t.caseCommands, partitions: 6 },
    { name: t.cases, partitions: 6, compacted: true },
    { name: t.overrides, partitions: 3, compacted: true },
    { name: t.feedback, partitions: 6 },
    { name: t.webhooks, partitions: 3, compacted: true },
    { name: t.webhookDeliveries, partitions: 6, compacted: true },
    { name: t.webhookDeadLetters, partitions: 6 },
    { name: t.audit, partitions: 6 },
    { name: t.apiKeys, partitions: 3, compacted: true },
    { name: t.tenants, partitions: 1, compacted: true },
    { name: t.dashboardUsers, partitions: 1, compacted: true },
    { name: t.dashboardSessions, partitions: 3, compacted: true },
    { name: t.billing, partitions: 6 },
    { name: t.clientCas, partitions: 1, compacted: true },
    { name: t.signals, partitions: 3, compacted: true },
    { name: t.models, partitions: 3 },
    { name: t.asyncScorerByTenant, partitions: config.decisionsPartitions, appendTime: true },
    { name: t.feedbackByTenant, partitions: config.decisionsPartitions, appendTime: true },
    { name: t.deadLetters, partitions: 3 }
  ]
}
