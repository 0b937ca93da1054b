import type { FastifyPluginAsync } from 'fastify'
import { overviewOf } from '../../domain/decision/overview.js'
import type { TransactionRecord } from '../../domain/records/decisions.js'
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
 * of this instance's groups (the pipeline is shared by every tenant; it says nothing about one).
 */
export const overviewRoutes: FastifyPluginAsync<OverviewDeps> = async (app, deps) => {
  app.get<{ Querystring: { minutes?: number } }>('/v1/overview', {
    config: { scope: 'transactions:read' },
    schema: { querystring: { type: 'object', additionalProperties: false, properties: { minutes: { type: 'integer', minimum: 1, maximum: 1440, description: 'The window, in minutes back from now (default 60).' } } } }
  }, async request => {
    const minutes = request.query.minutes ?? 60
    const to = deps.clock()
    const from = to - minutes * 60_000
    const records: TransactionRecord[] = []
    for await (const r of transactionsBetween(deps.state, request.scope, from, to + 1, OVERVIEW_MAX + 1)) records.push(r)
    const scope = request.scope
    const trained = deps.models.record(scope)
    const last = deps.models.challenger(scope)
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
        evaluation: last?.evaluation ?? null
      },
      lag: await deps.lag()
    }
  })
}
