import type { FastifyPluginAsync } from 'fastify'
import { overviewOf, qualityStatus } from '../../domain/decision/overview.js'
import type { TransactionRecord } from '../../domain/records/decisions.js'
import { scopesNotHeld } from '../../services/auth.js'
import { caseSummary } from '../../services/case-summary.js'
import { webhookFailures } from '../../services/webhook-failures.js'
import type { StateDb } from '../../stores/state-db.js'
import { transactionsBetween } from '../../stores/transactions.js'
import type { ModelRegistry } from '../../stream/views/model-registry.js'

/** At most this many decisions are drawn (the answer says when it stopped there). */
const OVERVIEW_MAX = 200_000

export interface OverviewDeps {
  state: StateDb
  clock: () => number
  models: Pick<ModelRegistry, 'model' | 'record' | 'challenger'>
  /** Consumer lag per group of this process (the /healthz figure). */
  lag: () => Promise<Record<string, number>>
}

/**
 * GET /v1/overview?minutes= (scope transactions:read): what the dashboard's overview draws for the caller's tenant
 * and mode over the last minutes (default 60, at most 1,440): decisions per minute by action, the score
 * histogram, p50 and p99 decision latency, the active model and its last measured quality, and the consumer lag
 * of this instance's groups (the pipeline is shared by every tenant; it says nothing about one); for operators, the
 * top rules' hits over the window, where measuring quality on matured labels stands, and, when the caller holds
 * their scopes, the open-case backlog (cases:read; one pass over the queue index, at most 100,000 entries)
 * and failed webhook deliveries (webhooks:manage; bounded reads per endpoint). Null when the scope is not held.
 */
export const overviewRoutes: FastifyPluginAsync<OverviewDeps> = async (app, deps) => {
  app.get<{ Querystring: { minutes?: number } }>('/v1/overview', {
    config: { scope: 'transactions:read' },
    schema: { querystring: { type: 'object', additionalProperties: false, properties: { minutes: { type: 'integer', minimum: 1, maximum: 1440, description: 'The window, in minutes back from now (default 60).' } } } }
  }, async request => {
    const minutes = request.query.minutes ?? 60
    const to = deps.clock()
    const from = to - minutes * 60_000
    const scope = request.scope
    const trained = deps.models.record(scope)
    const last = deps.models.challenger(scope)
    const holds = (s: string) => scopesNotHeld(request.caller, [s]).length === 0
    const decisions = async () => {
      const records: TransactionRecord[] = []
      for await (const r of transactionsBetween(deps.state, scope, from, to + 1, OVERVIEW_MAX + 1)) records.push(r)
      return records
    }
    const [records, cases, webhooks] = await Promise.all([
      decisions(),
      holds('cases:read') ? caseSummary(deps.state, scope, to) : null,
      holds('webhooks:manage') ? webhookFailures(deps.state, scope, to) : null
    ])
    return {
      object: 'overview',
      from: Math.floor(from / 1000),
      to: Math.floor(to / 1000),
      truncated: records.length > OVERVIEW_MAX,
      ...overviewOf(records.slice(0, OVERVIEW_MAX), from, to + 1),
      model: {
        version: deps.models.model(scope).version,
        trained_labels: trained?.trained ?? 0,
        // The last comparison on matured labels: average precision of the champion and of the challenger.
        evaluation: last?.evaluation ?? null,
        quality: qualityStatus(trained, last)
      },
      cases: cases === null ? null : { capped: cases.capped, open: cases.open, in_review: cases.in_review, oldest_unclosed_created: cases.oldest_unclosed_created, oldest_unclosed_age_seconds: cases.oldest_unclosed_age_seconds },
      webhooks,
      lag: await deps.lag()
    }
  })
}
