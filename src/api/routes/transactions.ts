import type { FastifyInstance } from 'fastify'
import type { StateDb } from '../../stores/state-db.js'
import { getTransaction } from '../../stores/transactions.js'
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

export function transactionRoutes (app: FastifyInstance, state: StateDb): void {
  app.get<{ Params: { id: string } }>('/v1/transactions/:id', { config: { scope: 'transactions:read' } }, async request => {
    const record = await getTransaction(state, request.scope, request.params.id)
    if (record === undefined) throw notFound('transaction', request.params.id)
    return transactionResource(record)
  })
}
