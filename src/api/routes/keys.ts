import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Core } from '../../services/core.js'
import { newId } from '../../domain/ids.js'
import { scopesNotHeld, type Principal } from '../../services/auth.js'
import { apiKeyByIdKey, newApiKey } from '../../stores/api-keys.js'
import { prefixRange, rangeAfter, TAG } from '../../stores/keys.js'
import { scanJson } from '../../stores/rocks.js'
import { ApiError, notFound } from '../../services/errors.js'
import { listQuerySchema, pageOf, type ListQuery } from '../pagination.js'
import { publishChange } from '../../services/publish-change.js'
import { type ApiKeyChange, ALL_SCOPES, type ApiKeyRecord, apiKeyChangeRecord } from '../../domain/records/api-keys.js'
/** After a rotation the old key keeps working this long, then answers 401 key_expired. */
export const ROTATION_GRACE_MS = 24 * 3_600_000

export function keyResource (k: ApiKeyRecord, secret?: string) {
  return {
    object: 'api_key',
    id: k.id,
    name: k.name,
    livemode: k.livemode,
    scopes: k.scopes,
    status: k.status ?? 'active',
    redacted: k.redacted ?? null,
    created: Math.floor(k.created_ms / 1000),
    expires_at: k.expires_ms == null ? null : Math.floor(k.expires_ms / 1000),
    rotated_to: k.rotated_to ?? null,
    ...(secret === undefined ? {} : { secret })
  }
}

/** A key grants at most what it holds: every scope of a key it creates or rotates must be one of its own. */
function requireGrantable (p: Principal, scopes: readonly string[]): void {
  const extra = scopesNotHeld(p, scopes)
  if (extra.length > 0) throw new ApiError('insufficient_scope', `This API key cannot grant scopes it does not hold: ${extra.join(', ')}.`, 'scopes')
}

/** Publishes a key's new state on the compacted `api-keys` topic and waits until this instance applied it. */
export async function publishApiKey (core: Pick<Core, 'apiKeys' | 'log' | 'topics'>, key: ApiKeyRecord): Promise<void> {
  const change: ApiKeyChange = { key, change_id: newId('chg') }
  await publishChange(core.log, core.topics.apiKeys, core.apiKeys, change.change_id, apiKeyChangeRecord(change))
}

/**
 * API keys of the caller's tenant (scope keys:manage). A key is created for one environment: a live key may
 * create live and sandbox keys, a sandbox key sandbox keys only. Its scopes default to the caller's and may
 * only be a subset of them (rotation likewise). The secret is in the creating response only;
 * the service keeps its SHA-256. Keys live on the compacted `api-keys` topic, materialized on every instance.
 */
export function keyRoutes (app: FastifyInstance, core: Pick<Core, 'apiKeys' | 'audit' | 'clock' | 'log' | 'state' | 'topics'>): void {
  const { state, clock } = core
  const config = { scope: 'keys:manage' }
  const find = async (request: FastifyRequest, id: string): Promise<ApiKeyRecord> => {
    const raw = await state.get(apiKeyByIdKey(request.caller.tenant, id))
    const k = raw === undefined ? undefined : JSON.parse(raw.toString()) as ApiKeyRecord
    if (k === undefined || (k.livemode && request.caller.mode === 'test')) throw notFound('api key', id)
    return k
  }
  const save = async (request: FastifyRequest, key: ApiKeyRecord, action: string, data: Record<string, unknown> = {}) => {
    await publishApiKey(core, key)
    const p = request.caller
    await core.audit.record({ tenant_id: p.tenant, mode: p.mode, actor: p.actor, action, object_type: 'api_key', object_id: key.id, trace_id: request.id, data: { name: key.name, livemode: key.livemode, scopes: key.scopes, ...data } })
  }
  const issue = (tenant: string, name: string, livemode: boolean, scopes: string[]) => newApiKey(tenant, name, livemode, scopes, clock())

  app.post<{ Body: { name: string, livemode?: boolean, scopes?: string[] } }>('/v1/keys', {
    config,
    schema: {
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['name'],
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 200 },
          livemode: { type: 'boolean' },
          scopes: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', enum: [...ALL_SCOPES] } }
        }
      }
    }
  }, async request => {
    const p = request.caller
    const livemode = request.body.livemode ?? p.mode === 'live'
    if (livemode && p.mode === 'test') throw new ApiError('live_key_required', 'A sandbox key cannot create live keys.', 'livemode')
    const scopes = request.body.scopes ?? [...p.scopes]
    requireGrantable(p, scopes)
    const { key, secret } = issue(p.tenant, request.body.name, livemode, scopes)
    await save(request, key, 'api_key.created')
    return keyResource(key, secret)
  })

  app.get<{ Querystring: ListQuery }>('/v1/keys', { config, schema: { querystring: listQuerySchema } }, async request => {
    const p = request.caller
    const after = request.query.starting_after
    const [from, lt] = rangeAfter(prefixRange(TAG.apiKeyById, p.tenant), after === undefined ? undefined : apiKeyByIdKey(p.tenant, after))
    const page = await pageOf(scanJson<ApiKeyRecord>(state.db, from, lt), k => p.mode === 'live' || !k.livemode, request.query)
    return { object: 'list', url: '/v1/keys', has_more: page.has_more, data: page.data.map(k => keyResource(k)) }
  })

  app.get<{ Params: { id: string } }>('/v1/keys/:id', { config }, async request => keyResource(await find(request, request.params.id)))

  app.post<{ Params: { id: string } }>('/v1/keys/:id/rotate', { config }, async request => {
    const old = await find(request, request.params.id)
    requireGrantable(request.caller, old.scopes)
    if (old.status === 'revoked' || old.rotated_to != null) throw new ApiError('key_not_rotatable', `Key ${old.id} is ${old.status === 'revoked' ? 'revoked' : 'already rotated'}.`)
    const { key, secret } = issue(old.tenant_id, old.name, old.livemode, old.scopes)
    await save(request, key, 'api_key.created', { rotated_from: old.id })
    const expiring = { ...old, expires_ms: clock() + ROTATION_GRACE_MS, rotated_to: key.id }
    await save(request, expiring, 'api_key.rotated', { rotated_to: key.id, expires_at: Math.floor(expiring.expires_ms / 1000) })
    return keyResource(key, secret)
  })

  app.post<{ Params: { id: string } }>('/v1/keys/:id/revoke', { config }, async request => {
    const k = await find(request, request.params.id)
    const revoked = { ...k, status: 'revoked' as const }
    await save(request, revoked, 'api_key.revoked')
    return keyResource(revoked)
  })
}
