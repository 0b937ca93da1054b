import type { FastifyInstance } from 'fastify'
import { ref, type Named } from './schemas/named.js'
import { BatchResult, Transaction, TransactionList } from './schemas/decisions.js'
import { BulkDisposition, Case, CaseList, CaseSummary } from './schemas/cases.js'
import { WebhookDelivery, WebhookDeliveryList, WebhookEndpoint, WebhookEndpointList } from './schemas/webhooks.js'
import { ApiKey, ApiKeyList } from './schemas/keys.js'
import { Override, OverrideList } from './schemas/overrides.js'
import { Rollout, RolloutList, Rule, RuleList, ValueList, ValueListList } from './schemas/rules.js'
import { DashboardUser, DashboardUserList } from './schemas/dashboard-users.js'
import { Backtest, ExpressionCheck, RuleHits } from './schemas/rule-insight.js'
import { Overview, RiskSettings } from './schemas/settings.js'
import { AuditEntryList } from './schemas/audit.js'
import { ClientCa } from './schemas/client-ca.js'
import { Signal } from './schemas/signals.js'
import { Deleted } from './schemas/deleted.js'

/**
 * The name, one-line summary and tag of every operation of the public API, by `METHOD /path` as the OpenAPI
 * document writes it. Generated clients take their method names from `operationId`, so an id is part of the
 * contract: renaming one is a breaking change for every client. openapi.ts fails to build the document if a
 * route has no entry here, or an entry names no route.
 */
export interface OperationName { id: string, summary: string, tag: Tag, ok?: Named, body?: string }

/** The document's tags, in the order a reader meets them, with what each groups. */
export const TAGS = {
  Scoring: 'Decide on an event inline: one, or a batch of up to 500.',
  Transactions: 'Decisions already made, searched and read back.',
  Rules: 'The tenant\u2019s CEL rules: versions, rollouts in shadow, backtests, validation and hit counts.',
  Lists: 'Value lists (block and allow lists) that rules read with in_list().',
  'Risk settings': 'The score thresholds between approve, flag and reject.',
  Overview: 'Decisions, scores and consumer lag over the last minutes, as the dashboard draws them.',
  Cases: 'The review queue: cases opened for flagged decisions, their assignment and disposition.',
  Overrides: 'A decision (approve, flag or reject) forced for a subject, until it expires or is removed.',
  Signals: 'Signal changes reported by the tenant: SIM swaps and IP reputation.',
  Webhooks: 'Endpoints that receive signed events, their deliveries and replays.',
  'API keys': 'Secret and publishable keys, their scopes, rotation and revocation.',
  'Mutual TLS': 'The CA whose client certificates the mutual-TLS listener requires of this tenant.',
  'Dashboard users': 'The people who sign in to the dashboard, and their roles.',
  Audit: 'What happened under a trace id, or to an object.',
  Health: 'Liveness and readiness of the instance.'
} as const

export type Tag = keyof typeof TAGS

/**
 * `ok`: the schema of its 200 answer, when the route does not declare one itself; `body`: the name its request
 * body's schema has in the document, for a body a client builds (a generated type of that name).
 */
const op = (id: string, tag: Tag, summary: string, ok?: Named, body?: string): OperationName => ({ id, summary, tag, ok, body })

export const OPERATIONS: Record<string, OperationName> = {
  'GET /healthz': op('getHealth', 'Health', 'Whether the instance is up (the whole report with the operator\u2019s token)'),
  'GET /readyz': op('getReadiness', 'Health', 'Whether the instance is ready to serve (its views caught up)'),
  'POST /v1/score': op('scoreEvent', 'Scoring', 'Decide on one event', undefined, 'ScoreRequest'),
  'POST /v1/score/batch': op('scoreBatch', 'Scoring', 'Decide on up to 500 events in one durable write', BatchResult, 'BatchRequest'),
  'GET /v1/transactions': op('listTransactions', 'Transactions', 'List recent decisions, optionally of one subject', TransactionList),
  'GET /v1/transactions/{id}': op('getTransaction', 'Transactions', 'Read one decision by its trace id', Transaction),
  'POST /v1/rules': op('saveRule', 'Rules', 'Create a rule, or change one (a new ruleset version)', Rule, 'RuleInput'),
  'GET /v1/rules': op('listRules', 'Rules', 'List the active ruleset\u2019s rules', RuleList),
  'GET /v1/rules/{id}': op('getRule', 'Rules', 'Read a rule with its history', Rule),
  'POST /v1/rules/rollout': op('startRollout', 'Rules', 'Roll out a pack of rules in shadow for a share of traffic', Rollout, 'RolloutInput'),
  'GET /v1/rules/rollout': op('listRollouts', 'Rules', 'List rollouts', RolloutList),
  'GET /v1/rules/rollout/{pack}': op('getRollout', 'Rules', 'Read a rollout and its runs', Rollout),
  'POST /v1/rules/rollout/{pack}/stop': op('stopRollout', 'Rules', 'Stop a pack\u2019s running rollout (its rules then run nowhere)', Rollout),
  'POST /v1/rules/rollout/{pack}/promote': op('promoteRollout', 'Rules', 'Promote a pack: its rules decide for every request (enforce)', Rollout),
  'POST /v1/rules/{id}/backtest': op('backtestRule', 'Rules', 'Backtest a rule or a draft over stored decisions and labels', Backtest),
  'POST /v1/rules/validate': op('validateRule', 'Rules', 'Check a rule expression without saving it', ExpressionCheck),
  'GET /v1/rules/hits': op('listRuleHits', 'Rules', 'How often each rule matched in the last hours', RuleHits),
  'GET /v1/lists': op('listLists', 'Lists', 'List value lists', ValueListList),
  'POST /v1/lists': op('createList', 'Lists', 'Create a value list', ValueList, 'ValueListInput'),
  'GET /v1/lists/{alias}': op('getList', 'Lists', 'Read a value list with its items', ValueList),
  'DELETE /v1/lists/{alias}': op('deleteList', 'Lists', 'Delete a value list', Deleted),
  'POST /v1/lists/{alias}/items': op('addListItem', 'Lists', 'Add an item to a value list', ValueList, 'ListItem'),
  'DELETE /v1/lists/{alias}/items/{value}': op('deleteListItem', 'Lists', 'Remove an item from a value list', ValueList),
  'GET /v1/risk_settings': op('getRiskSettings', 'Risk settings', 'Read the score thresholds', RiskSettings),
  'POST /v1/risk_settings': op('updateRiskSettings', 'Risk settings', 'Change the score thresholds', RiskSettings),
  'GET /v1/overview': op('getOverview', 'Overview', 'Decisions, scores and lag over the last minutes', Overview),
  'POST /v1/cases': op('createCase', 'Cases', 'Open a case for a decision or a subject', Case, 'CaseInput'),
  'GET /v1/cases': op('listCases', 'Cases', 'List cases, filtered and ordered', CaseList),
  'GET /v1/cases/{id}': op('getCase', 'Cases', 'Read a case', Case),
  'POST /v1/cases/{id}/assign': op('assignCase', 'Cases', 'Assign a case to an analyst', Case),
  'POST /v1/cases/{id}/disposition': op('disposeCase', 'Cases', 'Record a case\u2019s outcome (fraud, legitimate, chargeback)', Case, 'Disposition'),
  'POST /v1/cases/{id}/notes': op('addCaseNote', 'Cases', 'Add a note to a case', Case, 'CaseNoteInput'),
  'POST /v1/cases/dispositions': op('disposeCases', 'Cases', 'Record one outcome for many cases, each on its own', BulkDisposition, 'BulkDispositionInput'),
  'GET /v1/cases/summary': op('getCaseSummary', 'Cases', 'Count the open and in-review cases and age the oldest', CaseSummary),
  'POST /v1/overrides': op('createOverride', 'Overrides', 'Force the decision for a subject', Override, 'OverrideInput'),
  'GET /v1/overrides': op('listOverrides', 'Overrides', 'List overrides', OverrideList),
  'GET /v1/overrides/{id}': op('getOverride', 'Overrides', 'Read an override', Override),
  'DELETE /v1/overrides/{id}': op('deleteOverride', 'Overrides', 'Remove an override', Deleted),
  'POST /v1/signals': op('reportSignal', 'Signals', 'Report a SIM swap or an IP reputation change', Signal),
  'POST /v1/webhooks': op('createWebhookEndpoint', 'Webhooks', 'Create a webhook endpoint (its secret is shown once)', WebhookEndpoint, 'WebhookEndpointInput'),
  'GET /v1/webhooks': op('listWebhookEndpoints', 'Webhooks', 'List webhook endpoints', WebhookEndpointList),
  'GET /v1/webhooks/{id}': op('getWebhookEndpoint', 'Webhooks', 'Read a webhook endpoint', WebhookEndpoint),
  'POST /v1/webhooks/{id}': op('updateWebhookEndpoint', 'Webhooks', 'Change a webhook endpoint', WebhookEndpoint),
  'DELETE /v1/webhooks/{id}': op('deleteWebhookEndpoint', 'Webhooks', 'Delete a webhook endpoint', Deleted),
  'POST /v1/webhooks/{id}/rotate_secret': op('rotateWebhookSecret', 'Webhooks', 'Rotate an endpoint\u2019s signing secret (the old one signs for 24 h more)', WebhookEndpoint),
  'GET /v1/webhooks/{id}/deliveries': op('listWebhookDeliveries', 'Webhooks', 'List an endpoint\u2019s deliveries', WebhookDeliveryList),
  'GET /v1/webhooks/{id}/deliveries/{delivery}': op('getWebhookDelivery', 'Webhooks', 'Read a delivery with its attempts', WebhookDelivery),
  'POST /v1/webhooks/{id}/deliveries/{delivery}/replay': op('replayWebhookDelivery', 'Webhooks', 'Deliver an event again: answers the new delivery (replay_of names this one)', WebhookDelivery),
  'POST /v1/webhooks/{id}/deliveries/replay': op('replayWebhookDeliveries', 'Webhooks', 'Deliver several events again: the deliveries named, or the failed ones not replayed yet (up to 100 a call)', WebhookDeliveryList, 'WebhookDeliveriesReplayInput'),
  'POST /v1/keys': op('createApiKey', 'API keys', 'Create an API key (a secret key is shown once)', ApiKey, 'ApiKeyInput'),
  'GET /v1/keys': op('listApiKeys', 'API keys', 'List API keys', ApiKeyList),
  'GET /v1/keys/{id}': op('getApiKey', 'API keys', 'Read an API key', ApiKey),
  'POST /v1/keys/{id}/rotate': op('rotateApiKey', 'API keys', 'Rotate an API key', ApiKey),
  'POST /v1/keys/{id}/revoke': op('revokeApiKey', 'API keys', 'Revoke an API key', ApiKey),
  'GET /v1/audit': op('listAuditEntries', 'Audit', 'What happened under a trace id, or to an object', AuditEntryList),
  'POST /v1/mtls/client_ca': op('setClientCa', 'Mutual TLS', 'Upload the CA of the tenant\u2019s client certificates', ClientCa),
  'GET /v1/mtls/client_ca': op('getClientCa', 'Mutual TLS', 'Read the tenant\u2019s client CA', ClientCa),
  'POST /v1/dashboard_users': op('createDashboardUser', 'Dashboard users', 'Create a dashboard user with a password', DashboardUser),
  'GET /v1/dashboard_users': op('listDashboardUsers', 'Dashboard users', 'List dashboard users', DashboardUserList),
  'GET /v1/dashboard_users/{id}': op('getDashboardUser', 'Dashboard users', 'Read a dashboard user', DashboardUser),
  'POST /v1/dashboard_users/{id}': op('updateDashboardUser', 'Dashboard users', 'Change a dashboard user\u2019s name, role or status', DashboardUser)
}

/** A route's path as the document writes it: /v1/cases/{id} for /v1/cases/:id. */
export const documentPath = (url: string): string => url.replace(/:([A-Za-z_]+)/g, '{$1}')

/**
 * Gives each route of the API (added after this) the schema of its 200 answer from OPERATIONS, unless it declares
 * one: fastify serializes the answer with it, and the document shows it.
 */
export function declareResponses (app: FastifyInstance): void {
  app.addHook('onRoute', route => {
    const methods = [route.method].flat()
    if (methods.includes('HEAD') || methods.length !== 1) return
    const ok = OPERATIONS[`${methods[0]!} ${documentPath(route.url)}`]?.ok
    if (ok === undefined || route.schema?.response !== undefined) return
    route.schema = { ...route.schema, response: { 200: ref(ok) } }
  })
}
