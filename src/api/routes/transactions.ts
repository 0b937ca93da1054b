import type { FastifyInstance } from 'fastify'
import type { StateDb } from '../../stores/state-db.js'
import { getTransaction, INDEXED_VALUE_MAX, transactionsNewestFirst, transactionsOfSubject } from '../../stores/transactions.js'
import { asyncChecksOf } from '../../stores/async-checks.js'
import { SUBJECTS, subjectsOf } from '../../domain/decision/subjects.js'
import { searchForm } from '../../domain/decision/search-form.js'
import type { Subject } from '../../domain/decision/types.js'
import { listQuerySchema, pageOf, type ListQuery } from '../pagination.js'
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

/**
 * How many of one subject's decisions a search naming several subjects reads at most (the first one's, through
 * its index) to find those matching the others too. A search naming one subject reads only what it returns.
 */
export const SEARCH_WINDOW = 20_000

const valueParameter = (description: string) => ({ type: 'string', minLength: 1, maxLength: INDEXED_VALUE_MAX, description })
/** The subjects a search can name, as query parameters. */
const SUBJECT_PARAMETERS: Record<Subject, object> = {
  user_id: valueParameter('Only decisions of this user id (exactly as sent).'),
  email: valueParameter('Only decisions of this email, in any case (Ada@Example.com finds ada@example.com).'),
  device_id: valueParameter('Only decisions of this device id (exactly as sent).'),
  ip: { type: 'string', anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }], description: 'Only decisions from this IPv4 or IPv6 address (an IPv6 address however written: 2001:DB8:0::1 finds 2001:db8::1).' },
  card: valueParameter('Only decisions of this card fingerprint (the request\u2019s card_fingerprint, exactly as sent).')
}

/** Whether a decision has every subject value the search names (in search form). */
function hasSubjects (record: TransactionRecord, wanted: ReadonlyArray<[Subject, string]>): boolean {
  const subjects = subjectsOf(record.request)
  return wanted.every(([s, v]) => subjects[s] !== undefined && searchForm(s, subjects[s]) === v)
}

export function transactionRoutes (app: FastifyInstance, state: StateDb): void {
  /**
   * Decisions newest first, optionally of subjects (user_id, email, device_id, ip, card): a subject's decisions
   * come from its index (stores/transactions.ts), all of them, paged with `starting_after` (older follow).
   */
  app.get<{ Querystring: ListQuery & Partial<Record<Subject, string>> }>('/v1/transactions', {
    config: { scope: 'transactions:read' },
    schema: {
      querystring: {
        ...listQuerySchema,
        properties: { ...listQuerySchema.properties, ...SUBJECT_PARAMETERS }
      }
    }
  }, async request => {
    const q = request.query
    const wanted = SUBJECTS.filter(s => q[s] !== undefined).map(s => [s, searchForm(s, q[s]!)] as [Subject, string])
    const records = wanted.length === 0
      ? transactionsNewestFirst(state, request.scope, q.starting_after, (q.limit ?? 10) + 1)
      : transactionsOfSubject(state, request.scope, wanted[0]![0], wanted[0]![1], q.starting_after, SEARCH_WINDOW)
    const page = await pageOf(records, r => hasSubjects(r, wanted), q)
    return { object: 'list', url: '/v1/transactions', has_more: page.has_more, data: page.data.map(transactionResource) }
  })

  app.get<{ Params: { id: string } }>('/v1/transactions/:id', { config: { scope: 'transactions:read' } }, async request => {
    const record = await getTransaction(state, request.scope, request.params.id)
    if (record === undefined) throw notFound('transaction', request.params.id)
    return { ...transactionResource(record), async_checks: await asyncChecksOf(state, request.scope, record.trace_id) }
  })
}
