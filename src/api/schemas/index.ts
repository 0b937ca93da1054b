import type { FastifyInstance } from 'fastify'
import type { Named } from './named.js'
import { Health, Readiness } from './health.js'
import { BatchResult, Decision, Transaction, TransactionList } from './decisions.js'
import { BulkDisposition, Case, CaseHistoryEntry, CaseList, CaseNote, CaseSummary, CaseTransaction } from './cases.js'
import { WebhookDelivery, WebhookDeliveryList, WebhookEndpoint, WebhookEndpointList } from './webhooks.js'
import { ApiKey, ApiKeyList } from './keys.js'
import { Override, OverrideList } from './overrides.js'
import { Rollout, RolloutList, Rule, RuleList, RuleVersion, ValueList, ValueListList } from './rules.js'
import { DashboardUser, DashboardUserList } from './dashboard-users.js'
import { Backtest, ExpressionCheck, RuleHits } from './rule-insight.js'
import { Overview, RiskSettings } from './settings.js'
import { AuditEntry, AuditEntryList } from './audit.js'
import { ClientCa } from './client-ca.js'
import { Signal } from './signals.js'
import { Deleted } from './deleted.js'
import { EVENTS, WebhookEvent } from './events.js'

/** Every named response schema, added to a server before its routes (which refer to them); a list after its item. */
const ALL: Named[] = [
  Health, Readiness,
  Decision, Transaction, TransactionList, BatchResult,
  CaseHistoryEntry, CaseNote, CaseTransaction, Case, CaseList, CaseSummary, BulkDisposition,
  WebhookEndpoint, WebhookEndpointList, WebhookDelivery, WebhookDeliveryList,
  ApiKey, ApiKeyList,
  Override, OverrideList,
  RuleVersion, Rule, RuleList, ValueList, ValueListList, Rollout, RolloutList,
  DashboardUser, DashboardUserList,
  Backtest, ExpressionCheck, RuleHits, RiskSettings, Overview, AuditEntry, AuditEntryList, ClientCa, Signal, Deleted,
  ...EVENTS, WebhookEvent
]

export function addNamedSchemas (app: FastifyInstance): void {
  for (const schema of ALL) app.addSchema(schema)
}
