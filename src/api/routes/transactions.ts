import type { FastifyInstance } from 'fastify'
import type { StateDb } from '../../stores/state-db.js'
import { getTransaction, transactionsNewestFirst } from '../../stores/transactions.js'
import { asyncChecksOf } from '../../stores/async-checks.js'
import { SUBJECTS, subjectsOf } from '../../domain/decision/subjects.js'
import type { Subject } from '../../domain/decision/types.js'
import { listQuerySchema, type ListQuery } from '../pagination.js'
import { notFound } from '../../services/errors.js'
import type { TransactionRecord } from '../../domain/records/decisions.js'

/** The transaction resource: the decision as returned, the request it answered, and what it was evaluated with. */
export function transactionResource (r: TransactionRecord) {
  return {
    object: 'transaction',
    id: r.trace_id,
    trace_id: r.trace_id,
    livemode: r.livemode,
    created: Math.floor(r.created_ms / 1000),
    event: r.request.event,
    request: r.request,
    decision: r.decision,
    evaluation: {
      ruleset_version: r.ruleset_version,
      model_version: r.model_version,
      base_action: r.base_action,
      override_gate: r.override_gate,
      rule_errors: r.rule_errors,
      rollout_buckets: r.rollout_buckets,
      features: r.features
    }
  }
}

/** How many of a tenant's newest decisions a subject search reads at most (there is no index by subject). */
export const SEARCH_WINDOW = 20_000

export function transactionRoutes (app: FastifyInstance, state: StateDb): void {
  /**
   * Decisions newest first, optionally of one subject (user_id, email, device_id, ip or card, exactly as sent):
   * the newest SEARCH_WINDOW decisions of the tenant and mode are searched; `starting_after` pages on (older).
   */
  app.get<{ Querystring: ListQuery & Partial<Record<Subject, string>> }>('/v1/transactions', {
    config: { scope: 'transactions:read' },
    schema: {
      querystring: {
        ...listQuerySchema,
        properties: { ...listQuerySchema.properties, ...Object.fromEntries(SUBJECTS.map(s => [s, { type: 'string', minLength: 1, maxLength: 256 }])) }
      }
    }
  }, async request => {
    const q = request.query
    const limit = q.limit ?? 10
    const wanted = SUBJECTS.filter(s => q[s] !== undefined)
    const data: TransactionRecord[] = []
    let hasMore = false
    for await (const r of transactionsNewestFirst(state, request.scope, q.starting_after, SEARCH_WINDOW)) {
      if (wanted.length > 0) {
        const subjects = subjectsOf(r.request)
        if (!wanted.every(s => subjects[s] === q[s])) continue
      }
      if (data.length === limit) { hasMore = true; break }
      data.push(r)
    }
    return { object: 'list', url: '/v1/transactions', has_more: hasMore, data: data.map(transactionResource) }
  })

  app.get<{ Params: { id: string } }>('/v1/transactions/:id', { config: { scope: 'transactions:read' } }, async request => {
    const record = await getTransaction(state, request.scope, request.params.id)
    if (record === undefined) throw notFound('transaction', request.params.id)
    return { ...transactionResource(record), async_checks: await asyncChecksOf(state, request.scope, record.trace_id) }
  })
}
