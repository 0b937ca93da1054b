import type { FastifyInstance, FastifyRequest } from 'fastify'
import { newId } from '../../domain/ids.js'
import { sameBytes } from '../../domain/same-bytes.js'
import { ALL_SCOPES } from '../../domain/records/api-keys.js'
import { tenantChangeRecord, type TenantQuotas, type TenantRecord } from '../../domain/records/tenants.js'
import { BATCH_MAX } from '../../services/score-requests.js'
import type { Core } from '../../services/core.js'
import { ApiError, notFound } from '../../services/errors.js'
import { publishChange } from '../../services/publish-change.js'
import { newApiKey } from '../../stores/api-keys.js'
import { rangeAfter } from '../../stores/keys.js'
import { scanJson } from '../../stores/rocks.js'
import { readTenant, tenantKey, tenantRange } from '../../stores/tenants.js'
import { tombstonesOf } from '../../stores/erasure.js'
import { appendConfirmed } from '../../stream/confirmation.js'
import { listQuerySchema, pageOf, type ListQuery } from '../pagination.js'
import { publishApiKey } from './keys.js'

export interface AdminDeps {
  core: Pick<Core, 'apiKeys' | 'tenants' | 'audit' | 'clock' | 'log' | 'state' | 'topics' | 'tenantDirectory'>
  /** OPERATOR_TOKEN: the only credential these routes answer. */
  operatorToken: string
  /** The deployment's number of cells: a new tenant goes to the one given, else to the one with the fewest tenants. */
  cells: number
}

export function tenantResource (t: TenantRecord) {
  return { object: 'tenant', id: t.id, name: t.name, cell: t.cell, status: t.status, quotas: t.quotas ?? {}, created: Math.floor(t.created_ms / 1000), updated: Math.floor(t.updated_ms / 1000) }
}

/** A quota: an integer within its bound, or null to go back to the deployment's default. */
const quota = (most: number) => ({ anyOf: [{ type: 'integer', minimum: 1, maximum: most }, { type: 'null' }] })
/** The quotas an operator may set; a batch never holds more than the API's own bound. */
const quotasSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { rate_per_second: quota(1_000_000), burst: quota(10_000_000), tenant_rate_per_second: quota(4_000_000), tenant_burst: quota(40_000_000), batch_size: quota(BATCH_MAX), rules: quota(100_000), list_items: quota(10_000_000) }
} as const

/** The quotas after a change: each field sent replaces, null removes it. */
function withQuotas (current: TenantQuotas | undefined, change: Record<string, number | null>): TenantQuotas {
  const next: Record<string, number> = { ...current }
  for (const [name, value] of Object.entries(change)) {
    if (value === null) delete next[name]
    else next[name] = value
  }
  return next
}

/**
 * The operator API (docs/operations.md#tenants): tenants created, listed, suspended, resumed and deleted, under /admin/v1, for the
 * operator's OPERATOR_TOKEN only. A tenant's API key gets 403 operator_required here, and the operator token is
 * no API key on /v1 (401 invalid_key there). Tenants live on the compacted `tenants` topic, materialized on
 * every instance; every operation is audited in the tenant's log with the actor `operator`, but a deletion, which
 * erases that log: the service's own log records it.
 */
export async function adminTenantRoutes (app: FastifyInstance, { core, operatorToken, cells }: AdminDeps): Promise<void> {
  const expected = Buffer.from(`Bearer ${operatorToken}`)
  // the operator's, not the integrators' contract: out of /v1/openapi.json
  const hide = true
  app.addHook('onRequest', async request => {
    const authorization = request.headers.authorization
    if (authorization === undefined || authorization === '') throw new ApiError('missing_key', 'No operator token provided. Send it as `Authorization: Bearer <OPERATOR_TOKEN>`.')
    if (!sameBytes(Buffer.from(authorization), expected)) throw new ApiError('operator_required', 'The operator API answers the operator token (OPERATOR_TOKEN) only; API keys act within their own account on /v1.')
  })

  const audit = (tenant: string, action: string, data: Record<string, unknown>, request: FastifyRequest) =>
    core.audit.record({ tenant_id: tenant, mode: 'live', actor: 'operator', action, object_type: 'tenant', object_id: tenant, trace_id: request.id, data })
  const save = (tenant: TenantRecord) => {
    const change = { tenant, change_id: newId('chg') }
    return publishChange(core.log, core.topics.tenants, core.tenants, change.change_id, tenantChangeRecord(change))
  }
  const find = async (id: string): Promise<TenantRecord> => {
    const t = await readTenant(core.state, id)
    if (t === undefined) throw notFound('tenant', id)
    return t
  }
  /** A tenant that may still change: a deleted one is gone for good. */
  const findLive = async (id: string): Promise<TenantRecord> => {
    const t = await find(id)
    if (t.status === 'deleted') throw new ApiError('invalid_transition', `Tenant '${id}' was deleted; a deleted tenant cannot change.`, 'id')
    return t
  }

  app.post<{ Body: { name: string, cell?: number, quotas?: Record<string, number | null> } }>('/admin/v1/tenants', {
    schema: { hide, body: { type: 'object', additionalProperties: false, required: ['name'], properties: { name: { type: 'string', minLength: 1, maxLength: 200 }, cell: { type: 'integer', minimum: 0, maximum: cells - 1 }, quotas: quotasSchema } } }
  }, async request => {
    const now = core.clock()
    const quotas = withQuotas(undefined, request.body.quotas ?? {})
    const cell = request.body.cell ?? core.tenantDirectory.emptiestCell(cells)
    const tenant: TenantRecord = { id: newId('ten', now), name: request.body.name, cell, status: 'active', ...(Object.keys(quotas).length === 0 ? {} : { quotas }), created_ms: now, updated_ms: now }
    await save(tenant)
    // The tenant's first keys, one per mode with every scope: shown once, here.
    const keys = [newApiKey(tenant.id, 'First sandbox key', false, [...ALL_SCOPES], now), newApiKey(tenant.id, 'First live key', true, [...ALL_SCOPES], now)]
    for (const { key } of keys) await publishApiKey(core, key)
    await audit(tenant.id, 'tenant.created', { name: tenant.name, cell: tenant.cell, keys: keys.map(k => k.key.id) }, request)
    return { ...tenantResource(tenant), keys: { test: keys[0]!.secret, live: keys[1]!.secret } }
  })

  app.get<{ Querystring: ListQuery }>('/admin/v1/tenants', { schema: { hide, querystring: listQuerySchema } }, async request => {
    const after = request.query.starting_after
    const [from, lt] = rangeAfter(tenantRange(), after === undefined ? undefined : tenantKey(after))
    const page = await pageOf(scanJson<TenantRecord>(core.state.db, from, lt), () => true, request.query)
    return { object: 'list', url: '/admin/v1/tenants', has_more: page.has_more, data: page.data.map(tenantResource) }
  })

  app.get<{ Params: { id: string } }>('/admin/v1/tenants/:id', { schema: { hide } }, async request => tenantResource(await find(request.params.id)))

  app.post<{ Params: { id: string }, Body: Record<string, number | null> }>('/admin/v1/tenants/:id/quotas', { schema: { hide, body: quotasSchema } }, async request => {
    const before = await findLive(request.params.id)
    const after: TenantRecord = { ...before, quotas: withQuotas(before.quotas, request.body), updated_ms: core.clock() }
    await save(after)
    await audit(after.id, 'tenant.quotas_updated', { quotas: after.quotas }, request)
    return tenantResource(after)
  })

  // Erasure (docs/operations.md#deleting-a-tenant): tombstones for every key the tenant has on the compacted topics,
  // then the deletion itself, which every instance applies by erasing the tenant's state. Run again, it appends
  // whatever tombstones are still due (a crash between the two steps) and answers the same.
  app.delete<{ Params: { id: string } }>('/admin/v1/tenants/:id', { schema: { hide } }, async request => {
    const before = await find(request.params.id)
    const tombstones = await tombstonesOf(core.state, before.id)
    for (const [topic, records] of tombstones) await appendConfirmed(core.log, topic, records)
    if (before.status !== 'deleted') {
      // The audit entry would be erased with the tenant's log: the operator's deletion is logged by the service.
      request.log.info({ operator: true, action: 'tenant.deleted', tenant: before.id, name: before.name, tombstones: [...tombstones.values()].reduce((n, r) => n + r.length, 0) }, 'tenant deleted')
      await save({ id: before.id, name: '', cell: before.cell, status: 'deleted', created_ms: before.created_ms, updated_ms: core.clock() })
    }
    return { object: 'tenant', id: before.id, deleted: true }
  })

  for (const [path, status, action] of [['suspend', 'suspended', 'tenant.suspended'], ['resume', 'active', 'tenant.resumed']] as const) {
    app.post<{ Params: { id: string } }>(`/admin/v1/tenants/:id/${path}`, { schema: { hide } }, async request => {
      const before = await findLive(request.params.id)
      if (before.status === status) return tenantResource(before)
      const after: TenantRecord = { ...before, status, updated_ms: core.clock() }
      await save(after)
      await audit(after.id, action, { name: after.name }, request)
      return tenantResource(after)
    })
  }
}
