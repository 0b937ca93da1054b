import type { TenantDirectory } from '../stores/tenants.js'
import type { TenantEraser } from '../stream/tenant-erasure.js'
import type { Views } from '../stream/views.js'
import type { Logger } from 'pino'
import type { IpReputationIndex } from '../stores/signals.js'
import type { StateDb } from '../stores/state-db.js'
import type { VelocityStore } from '../stores/velocity/index.js'
import type { AuditLog } from '../stream/audit-log.js'
import type { ControlPlane } from '../stream/control-plane.js'
import type { DecisionCodec } from '../stream/decision-codec.js'
import type { EventLog } from '../stream/eventlog/event-log.js'
import type { PipelineHealth } from '../stream/health.js'
import type { TopicNames } from '../stream/topics.js'
import type { ModelRegistry } from '../stream/views/model-registry.js'
import type { EgressPolicy } from '../domain/webhooks/egress-policy.js'

/**
 * What every process of the service has, the API and a topology running alone: local state, the event log,
 * and the control-plane views materialized from their topics (rulesets, cases, overrides, feedback labels).
 */
export interface Core extends Views {
  logger: Logger
  clock: () => number
  state: StateDb
  /** The event log as every consumer and producer of this process uses it (failed records dead-lettered). */
  log: EventLog
  /** What is failing in this process's pipeline, and what it dead-lettered. */
  health: PipelineHealth
  topics: TopicNames
  codec: DecisionCodec
  controlPlane: ControlPlane
  /** Velocity counters (request path, decisions materializer, fraud-label counts). */
  velocity: VelocityStore
  /** Each tenant's active model and IP reputation list, in memory. */
  modelRegistry: ModelRegistry
  reputation: IpReputationIndex
  /** The operator's tenants as requests are checked: suspended ones (403 tenant_suspended) and quotas. */
  tenantDirectory: TenantDirectory
  /** Erases deleted tenants' state here, in the background. */
  eraser: TenantEraser
  /** SHA-256 fingerprint of the mutual-TLS listener's certificate, for tenants to pin. */
  mtlsServerFingerprint: string | undefined
  audit: AuditLog
  /** Where webhook endpoints may point (WEBHOOK_EGRESS_ALLOW): checked when a URL is registered. */
  webhookEgress: EgressPolicy
}
