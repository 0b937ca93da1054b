import type { Logger } from 'pino'
import type { Config } from '../src/config.js'
import type { EventLog } from '../src/eventlog/event-log.js'
import type { ControlPlane } from '../src/pipeline/control-plane.js'
import type { CommandOutcome } from '../src/pipeline/cases-materializer.js'
import type { TopicMaterializer } from '../src/pipeline/topic-materializer.js'
import type { CaseRecord } from '../src/cases/types.js'
import type { TopicNames } from '../src/topics.js'
import type { DecisionCodec } from '../src/serde/decision-codec.js'
import type { StateDb } from '../src/state/state-db.js'
import type { AuditLog } from '../src/audit/audit-log.js'
import type { WebhookRecord } from '../src/webhooks/types.js'

/**
 * A topology: a stream processor that runs alone (`node dist/src/main.js topology <name>`, Kafka mode) or
 * inside the one-process service, on either EventLog transport.
 */
export interface TopologyContext {
  config: Config
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
}
export interface RunningTopology { stop(): Promise<void> }
export interface Topology {
  name: string
  description: string
  start(ctx: TopologyContext): Promise<RunningTopology>
}
