import type { FastifyInstance } from 'fastify'
import type { Core } from '../../services/core.js'
import { SUBJECTS } from '../../domain/decision/subjects.js'
import type { Subject, Action, Override } from '../../domain/decision/types.js'
import { newId } from '../../domain/ids.js'
import { prefixRange, rangeAfter, TAG } from '../../stores/keys.js'
import { overrideByIdKey } from '../../stores/overrides.js'
import type { Scope } from '../../domain/scope.js'
import { scanJson } from '../../stores/rocks.js'
import type { Principal } from '../../services/auth.js'
import { ApiError, notFound } from '../../services/errors.js'
import { publishChange } from '../../services/publish-change.js'
import { listQuerySchema, pageOf, type ListQuery } from '../pagination.js'
import { type OverrideRecord, overrideRecord } from '../../domain/records/overrides.js'
type StoredOverride = Override & { deleted: boolean }

export function overrideResource (o: Override, scope: Scope, nowMs: number) {
  return {
    object: 'override',
    id: o.id,
    livemode: scope.mode === 'live',
    subject: o.subject,
    value: o.value,
    action: o.action,
    reason: o.reason,
    created: Math.floor(o.created_ms / 1000),
    expires_at: o.expires_at_ms === null ? null : Math.floor(o.expires_at_ms / 1000),
    active: o.expires_at_ms === null || o.expires_at_ms > nowMs
  }
}

/**
 * Admin overrides (Stage 3): force the action for one subject (user_id, email, device_id, ip or card =
 * custom.card_fingerprint) until `expires_at`. Kept on the compacted `overrides` topic, materialized on every
 * instance; a request returns once its change is applied on the instance that served it.
 */
export function overrideRoutes (app: FastifyInstance, core: Pick<Core, 'audit' | 'clock' | 'log' | 'overrides' | 'state' | 'topics'>): void {
  const { state, clock } = core
  const publish = async (p: Principal, override: Override, deleted: boolean, traceId: string) => {
    const change: OverrideRecord = { tenant_id: p.tenant, mode: p.mode, override, deleted, actor: p.actor, change_id: newId('chg') }
    await publishChange(core.log, core.topics.overrides, core.overrides, change.change_id, overrideRecord(change))
    await core.audit.record({ tenant_id: p.tenant, mode: p.mode, actor: p.actor, action: deleted ? 'override.deleted' : 'override.created', object_type: 'override', object_id: override.id, trace_id: traceId, data: { subject: override.subject, value: override.value, action: override.action } })
  }
  const find = async (scope: Scope, id: string): Promise<StoredOverride> => {
    const raw = await state.get(overrideByIdKey(scope, id))
    const o = raw === undefined ? undefined : JSON.parse(raw.toString()) as StoredOverride
    if (o === undefined || o.deleted) throw notFound('override', id)
    return o
  }

  app.post<{ Body: { subject: Subject, value: string, action: Action, reason?: string, expires_at?: number } }>('/v1/overrides', {
    config: { scope: 'cases:write' },
    schema: {
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['subject', 'value', 'action'],
        properties: {
          subject: { type: 'string', enum: [...SUBJECTS] },
          value: { type: 'string', minLength: 1, maxLength: 256 },
          action: { type: 'string', enum: ['approve', 'flag', 'reject'] },
          reason: { type: 'string', maxLength: 1000 },
          expires_at: { type: 'integer', minimum: 0 }
        }
      }
    }
  }, async request => {
    const p = request.caller
    const now = clock()
    const { subject, value, action, reason = '', expires_at: expiresAt } = request.body
    if (expiresAt !== undefined && expiresAt * 1000 <= now) throw new ApiError('parameter_invalid', "'expires_at' must be in the future.", 'expires_at')
    const override: Override = { id: newId('ovr', now), subject, value, action, reason, created_ms: now, expires_at_ms: expiresAt === undefined ? null : expiresAt * 1000 }
    await publish(p, override, false, request.id)
    return overrideResource(override, request.scope, now)
  })

  app.get<{ Querystring: ListQuery }>('/v1/overrides', { config: { scope: 'cases:read' }, schema: { querystring: listQuerySchema } }, async request => {
    const scope = request.scope
    const q = request.query
    const [from, lt] = rangeAfter(prefixRange(TAG.overrideById, scope.tenant, scope.mode), q.starting_after === undefined ? undefined : overrideByIdKey(scope, q.starting_after))
    const page = await pageOf(scanJson<StoredOverride>(state.db, from, lt), o => !o.deleted, q)
    return { object: 'list', url: '/v1/overrides', has_more: page.has_more, data: page.data.map(o => overrideResource(o, scope, clock())) }
  })

  app.get<{ Params: { id: string } }>('/v1/overrides/:id', { config: { scope: 'cases:read' } }, async request => {
    const scope = request.scope
    return overrideResource(await find(scope, request.params.id), scope, clock())
  })

  app.delete<{ Params: { id: string } }>('/v1/overrides/:id', { config: { scope: 'cases:write' } }, async request => {
    const p = request.caller
    const { deleted: _deleted, ...override } = await find(request.scope, request.params.id)
    await publish(p, override, true, request.id)
    return { object: 'override', id: override.id, deleted: true }
  })
}
