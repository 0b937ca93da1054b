import { applyApiKeyChange } from '../stores/api-keys.js'
import { applyTenantChange, type TenantDirectory } from '../stores/tenants.js'
import { applyAsyncCheckEvent } from '../stores/async-checks.js'
import { applyDashboardSessionChange } from '../stores/dashboard-sessions.js'
import { applyDashboardUserChange } from '../stores/dashboard-users.js'
import { applyAuditEntry } from '../stores/audit.js'
import { applyCaseState, type CommandOutcome } from '../stores/cases.js'
import { applyClientCa } from '../stores/client-cas.js'
import { applyLabel } from '../stores/labels.js'
import { applyOverrideChange } from '../stores/overrides.js'
import { applySignalChange, type IpReputationIndex } from '../stores/signals.js'
import type { VelocityStore } from '../stores/velocity/index.js'
import { applyDeliveryState, applyWebhookChange } from '../stores/webhooks.js'
import type { ProcessorRuntime } from './processor.js'
import { parseJson, View, type Materialization } from './view.js'
import type { TopicNames } from './topics.js'
import type { ModelRegistry } from './views/model-registry.js'
import type { CaseRecord } from '../domain/records/cases.js'
import { decodeLabel, type FeedbackLabel } from '../domain/records/feedback.js'
import type { OverrideRecord } from '../domain/records/overrides.js'
import type { WebhookRecord } from '../domain/records/webhooks.js'
import type { Delivery } from '../domain/records/webhook-deliveries.js'
import type { AuditEntry } from '../domain/records/audit.js'
import type { ApiKeyChange } from '../domain/records/api-keys.js'
import type { TenantChange } from '../domain/records/tenants.js'
import type { DashboardUserChange } from '../domain/records/dashboard-users.js'
import type { DashboardSessionChange } from '../domain/records/dashboard-sessions.js'
import type { ClientCaRecord } from '../domain/records/client-cas.js'
import type { SignalChange } from '../domain/records/signals.js'
import type { ModelRecord } from '../domain/records/models.js'
import { parseEvent, type ServiceEvent } from '../domain/records/events.js'

/**
 * The control-plane views every process materializes from its compacted or append-only topics into local
 * state, each under its own consumer group per instance (`<name>-<origin id>`). How a record changes a store
 * is the store's own apply function (stores/); a view adds the id its writers wait on (`expect`).
 */
export interface Views {
  cases: View<CaseRecord, CommandOutcome>
  overrides: View<OverrideRecord, OverrideRecord>
  feedback: View<FeedbackLabel, undefined>
  webhooks: View<WebhookRecord, WebhookRecord>
  deliveries: View<Delivery, Delivery>
  auditEntries: View<AuditEntry, AuditEntry>
  apiKeys: View<ApiKeyChange, ApiKeyChange>
  tenants: View<TenantChange, TenantChange>
  dashboardUsers: View<DashboardUserChange, DashboardUserChange>
  dashboardSessions: View<DashboardSessionChange, DashboardSessionChange>
  clientCas: View<ClientCaRecord, ClientCaRecord>
  signals: View<SignalChange, SignalChange>
  models: View<ModelRecord, ModelRecord>
  /** Deferred checks' reports (`score.async` events), by decision: what a reviewer sees beside it. */
  asyncChecks: View<ServiceEvent, undefined>
}

/** What the apply functions need besides the batch: the velocity store and the in-memory indexes. */
export interface ViewDeps {
  velocity: VelocityStore
  reputation: IpReputationIndex
  modelRegistry: ModelRegistry
  tenantDirectory: TenantDirectory
  /** Erases a deleted tenant's state here (stream/tenant-erasure.ts). */
  erase(tenant: string): void
}

/** A view: its topic, its group name, how a record is decoded and applied, and the id a writer waits on. */
const view = <T, R>(topic: keyof TopicNames, name: string, how: Materialization<T, R>) => ({ topic, name, how })

function table (deps: ViewDeps) {
  return {
    cases: view<CaseRecord, CommandOutcome>('cases', 'cases', {
      decode: parseJson,
      apply: async (r, _c, w) => { await applyCaseState(r, w); return [[r.command.id, { ...r.command, case: r.case }]] }
    }),
    overrides: view<OverrideRecord, OverrideRecord>('overrides', 'overrides', { decode: parseJson, apply: async (c, _r, w) => { await applyOverrideChange(c, w); return [[c.change_id, c]] } }),
    feedback: view<FeedbackLabel, undefined>('feedback', 'feedback', { decode: decodeLabel, apply: async (l, _r, w) => { await applyLabel(l, w, deps.velocity); return [] } }),
    webhooks: view<WebhookRecord, WebhookRecord>('webhooks', 'webhooks', { decode: parseJson, apply: async (c, _r, w) => { applyWebhookChange(c, w); return [[c.change_id, c]] } }),
    deliveries: view<Delivery, Delivery>('webhookDeliveries', 'deliveries', { decode: parseJson, apply: async (d, _r, w) => { applyDeliveryState(d, w); return [[`${d.id}@${d.version}`, d]] } }),
    auditEntries: view<AuditEntry, AuditEntry>('audit', 'audit', { decode: parseJson, apply: async (e, r, w) => { applyAuditEntry(e, r, w); return [[e.id, e]] } }),
    apiKeys: view<ApiKeyChange, ApiKeyChange>('apiKeys', 'api-keys', { decode: parseJson, apply: async (c, _r, w) => { applyApiKeyChange(c, w); return [[c.change_id, c]] } }),
    tenants: view<TenantChange, TenantChange>('tenants', 'tenants', { decode: parseJson, apply: async (c, _r, w) => { applyTenantChange(c, w, deps.tenantDirectory, deps.erase); return [[c.change_id, c]] } }),
    dashboardUsers: view<DashboardUserChange, DashboardUserChange>('dashboardUsers', 'dashboard-users', { decode: parseJson, apply: async (c, _r, w) => { await applyDashboardUserChange(c, w); return [[c.change_id, c]] } }),
    dashboardSessions: view<DashboardSessionChange, DashboardSessionChange>('dashboardSessions', 'dashboard-sessions', { decode: parseJson, apply: async (c, _r, w) => { await applyDashboardSessionChange(c, w); return [[c.change_id, c]] } }),
    clientCas: view<ClientCaRecord, ClientCaRecord>('clientCas', 'client-cas', { decode: parseJson, apply: async (c, _r, w) => { applyClientCa(c, w); return [[c.change_id, c]] } }),
    signals: view<SignalChange, SignalChange>('signals', 'signals', { decode: parseJson, apply: async (c, _r, w) => { await applySignalChange(c, w, deps.reputation); return [[c.change_id, c]] } }),
    models: view<ModelRecord, ModelRecord>('models', 'models', { decode: parseJson, apply: async (m, _r, w) => { deps.modelRegistry.apply(m, w); return [[m.model.version, m]] } }),
    asyncChecks: view<ServiceEvent, undefined>('events', 'async-checks', { decode: parseEvent, apply: async (e, r, w) => { applyAsyncCheckEvent(r.headers?.tenant_id, e, w); return [] } })
  }
}

/** The views of one process, not yet started. */
export function openViews (runtime: ProcessorRuntime, topics: TopicNames, originId: string, deps: ViewDeps): Views {
  const views = Object.entries(table(deps)).map(([key, v]) =>
    [key, new View(runtime, String(topics[v.topic]), `${v.name}-${originId}`, v.how as Materialization<unknown, unknown>)])
  return Object.fromEntries(views) as unknown as Views
}
