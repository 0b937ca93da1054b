import type { Logger } from 'pino'
import type { ConsumedRecord, EventLog, LogRecord } from '../stream/eventlog/event-log.js'
import type { TransactionRecord } from '../domain/transaction.js'
import type { ControlPlane } from '../stream/control-plane.js'
import type { CommandOutcome } from '../stores/cases.js'
import type { TopicMaterializer } from '../stream/topic-materializer.js'
import type { CaseRecord } from '../domain/cases/types.js'
import type { TopicNames } from '../stream/topics.js'
import type { DecisionCodec } from '../stream/decision-codec.js'
import type { StateDb } from '../stores/state-db.js'
import type { AuditLog } from '../stream/audit-log.js'
import type { WebhookRecord } from '../domain/webhooks/types.js'
import type { ModelRegistry } from '../stream/views/model-registry.js'

/**
 * A topology: a stream processor that runs alone (`node dist/src/app/main.js topology <name>`, Kafka mode) or
 * inside the one-process service, on either EventLog transport.
 */
/** The settings topologies read (a part of the process configuration, app/config.ts). */
export interface TopologySettings {
  labelMaturityDays: number
  modelPublishIntervalMs: number
  webhookTimeoutMs: number
  webhookCaFile?: string
  webhookBackoffScale: number
}

export interface TopologyContext {
  config: TopologySettings
  logger: Logger
  log: EventLog
  codec: DecisionCodec
  topics: TopicNames
  /** This process's local state and its materialized views, for topologies that keep state. */
  state: StateDb
  control: ControlPlane
  cases: TopicMaterializer<CaseRecord, CommandOutcome>
  webhooks: TopicMaterializer<WebhookRecord, WebhookRecord>
  audit: AuditLog
  clock: () => number
  /** The published model versions (the model trainer continues from its tenant's active one). */
  models: ModelRegistry
}
export interface RunningTopology { stop(): Promise<void> }
export interface Topology {
  name: string
  description: string
  start(ctx: TopologyContext): Promise<RunningTopology>
}

/**
 * The common shape of a stateless topology: one consumer group over `topic`, each record mapped to the
 * records it causes, appended to `target`. At-least-once; what it writes carries ids stable across replays.
 */
export async function mapTopic (ctx: TopologyContext, group: string, topic: string, target: string, map: (r: ConsumedRecord) => Promise<LogRecord[]>): Promise<RunningTopology> {
  const subscription = await ctx.log.subscribe({
    group: `${ctx.topics.prefix}${group}`,
    topics: [topic],
    fromBeginning: true,
    onBatch: async records => {
      const out: LogRecord[] = []
      for (const r of records) out.push(...await map(r))
      if (out.length > 0) await ctx.log.append(target, out)
    }
  })
  return { stop: () => subscription.close() }
}

/** mapTopic over `decisions`, each record decoded with the decision codec. */
export function mapDecisions (ctx: TopologyContext, group: string, target: string, map: (d: TransactionRecord) => LogRecord[]): Promise<RunningTopology> {
  return mapTopic(ctx, group, ctx.topics.decisions, target, async r => map(await ctx.codec.decode(r.topic, r.value)))
}
