import type { FastifyInstance } from 'fastify'
import type { Core } from '../../services/core.js'
import { auditEntries } from '../../stores/audit.js'
import { getTransaction } from '../../stores/transactions.js'
import { ApiError } from '../../services/errors.js'
import type { AuditEntry } from '../../domain/records/audit.js'

function entryResource (e: AuditEntry) {
  return {
    object: 'audit_entry',
    id: e.id,
    livemode: e.mode === 'live',
    action: e.action,
    actor: e.actor,
    object_type: e.object_type,
    object_id: e.object_id,
    trace_id: e.trace_id,
    subject_trace_id: e.subject_trace_id ?? null,
    created: Math.floor(e.at_ms / 1000),
    data: e.data
  }
}

/**
 * GET /v1/audit?trace_id=...|object_id=... (scope audit:read): what happened under a trace id (the decision
 * itself, read from its durable record, then every change made by that request or about that decision, such
 * as its case) or to an object (rule, list, case, override, key, webhook endpoint), oldest first.
 */
export function auditRoutes (app: FastifyInstance, core: Pick<Core, 'state'>): void {
  app.get<{ Querystring: { trace_id?: string, object_id?: string } }>('/v1/audit', {
    config: { scope: 'audit:read' },
    schema: {
      querystring: {
        type: 'object',
        additionalProperties: false,
        properties: { trace_id: { type: 'string', minLength: 1, maxLength: 64 }, object_id: { type: 'string', minLength: 1, maxLength: 128 } }
      }
    }
  }, async request => {
    const p = request.caller
    const scope = request.scope
    const { trace_id: traceId, object_id: objectId } = request.query
    if ((traceId === undefined) === (objectId === undefined)) throw new ApiError('parameter_missing', "Give exactly one of 'trace_id' or 'object_id'.", 'trace_id')
    const data: Array<ReturnType<typeof entryResource>> = []
    if (traceId !== undefined) {
      const tx = await getTransaction(core.state, scope, traceId)
      if (tx !== undefined) {
        data.push(entryResource({
          id: `aud_${traceId}`, tenant_id: p.tenant, mode: p.mode, actor: 'score', action: 'decision.created', object_type: 'transaction', object_id: traceId,
          trace_id: traceId, at_ms: tx.created_ms,
          data: { action: tx.decision.action, score: tx.decision.score, rules: tx.decision.rules, ruleset_version: tx.ruleset_version, model_version: tx.model_version, override_gate: tx.override_gate }
        }))
      }
    }
    const entries = await auditEntries(core.state, scope, traceId !== undefined ? { traceId } : { objectId: objectId! })
    data.push(...entries.map(entryResource))
    return { object: 'list', url: '/v1/audit', has_more: false, data }
  })
}
