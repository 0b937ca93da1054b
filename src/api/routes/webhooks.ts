import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Core } from '../../services/core.js'
import { newId } from '../../domain/ids.js'
import { getDeliveryView, getEndpoint, scanDeliveries, scanEndpoints } from '../../stores/webhooks.js'
import type { Scope } from '../../domain/scope.js'
import { newWebhookSecret } from '../../domain/webhooks/signature.js'
import { deliveryIdFor, EVENT_TYPES, type EventType, type WebhookEndpoint } from '../../domain/webhooks/types.js'
import { ApiError, notFound } from '../../services/errors.js'
import { listQuerySchema, pageOf, type ListQuery } from '../pagination.js'
import { publishChange } from '../../services/publish-change.js'
import { type WebhookRecord, webhookRecord } from '../../domain/records/webhooks.js'
import type { Delivery } from '../../domain/records/webhook-deliveries.js'
import { replayRecord } from '../../domain/records/events.js'
import type { EgressPolicy } from '../../domain/webhooks/egress-policy.js'
import { shownDeliveryError } from '../../domain/webhooks/delivery-errors.js'
/** Previous secrets keep signing this long after a rotation. */
const ROTATION_OVERLAP_MS = 24 * 3_600_000

export function endpointResource (e: WebhookEndpoint, secret?: string) {
  return {
    object: 'webhook_endpoint',
    id: e.id,
    livemode: e.mode === 'live',
    url: e.url,
    events: e.events,
    description: e.description,
    status: e.status,
    disabled_reason: e.disabled_reason,
    created: Math.floor(e.created_ms / 1000),
    ...(secret === undefined ? {} : { secret })
  }
}

export function deliveryResource (d: Delivery) {
  const last = d.attempts[d.attempts.length - 1]
  return {
    object: 'webhook_delivery',
    id: d.id,
    webhook_endpoint: d.endpoint_id,
    event: { id: d.event_id, type: d.event_type },
    status: d.status,
    attempts_count: d.attempts.length,
    attempts: d.attempts.map(a => ({ at: Math.floor(a.at_ms / 1000), status_code: a.status_code, error: shownDeliveryError(a.error), duration_ms: a.duration_ms })),
    last_error: shownDeliveryError(last?.error ?? null),
    next_attempt: d.next_attempt_ms === null ? null : Math.floor(d.next_attempt_ms / 1000),
    replay_of: d.replay_of,
    created: Math.floor(d.created_ms / 1000)
  }
}

/**
 * HTTPS only, no credentials in the URL, at most 2,048 characters, and a destination the egress policy allows
 * as written: the WHATWG parser first turns every IPv4 notation (2130706433, 0x7f000001, 0177.0.0.1, 127.1) and
 * encoded or full-width host into its one form, then the policy classifies that. Names are not resolved here
 * (the answer would tell which internal names exist); each connection checks what they resolve to.
 */
function checkedUrl (raw: string, policy: EgressPolicy): string {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ApiError('parameter_invalid', "'url' is not a valid URL.", 'url')
  }
  if (url.protocol !== 'https:') throw new ApiError('parameter_invalid', "'url' must be an https:// URL.", 'url')
  if (url.username !== '' || url.password !== '') throw new ApiError('parameter_invalid', "'url' must not carry credentials.", 'url')
  const refusal = policy.urlRefusal(url)
  if (refusal !== null) throw new ApiError('parameter_invalid', `'url' points at ${refusal}, which the webhook egress policy does not allow: webhooks go to public addresses only.`, 'url')
  return url.toString()
}

/** What checkedUrl takes, as far as a schema says it: an absolute https:// URI with a host and no user:password@. */
const urlSchema = {
  type: 'string',
  minLength: 8,
  maxLength: 2048,
  format: 'uri',
  pattern: '^https://[^/?#@]+(?:[/?#]|$)',
  description: 'An https:// URL of a public host: loopback, private, link-local, CGNAT, multicast, reserved addresses and local names (localhost, single-label, .internal, ...) are refused (400 parameter_invalid) unless the operator allows them (WEBHOOK_EGRESS_ALLOW).'
}
const eventsSchema = { type: 'array', minItems: 1, maxItems: EVENT_TYPES.length, uniqueItems: true, items: { type: 'string', enum: [...EVENT_TYPES] } }
const descriptionSchema = { type: 'string', maxLength: 1000 }

export function webhookRoutes (app: FastifyInstance, core: Pick<Core, 'audit' | 'clock' | 'log' | 'state' | 'topics' | 'webhooks' | 'webhookEgress'>): void {
  const { state, clock } = core
  const scopeOf = (request: FastifyRequest): Scope => ({ tenant: request.caller.tenant, mode: request.caller.mode })
  const find = async (request: FastifyRequest, id: string) => {
    const e = await getEndpoint(state, scopeOf(request), id)
    if (e === undefined) throw notFound('webhook endpoint', id)
    return e
  }
  /** Publishes the endpoint's new state (null: deleted), waits until applied here, and audits the change. */
  const publish = async (request: FastifyRequest, id: string, endpoint: WebhookEndpoint | null, action: string, data: Record<string, unknown> = {}) => {
    const p = request.caller
    const record: WebhookRecord = { tenant_id: p.tenant, mode: p.mode, id, endpoint, change_id: newId('chg'), actor: p.actor }
    await publishChange(core.log, core.topics.webhooks, core.webhooks, record.change_id, webhookRecord(record))
    await core.audit.record({ tenant_id: p.tenant, mode: p.mode, actor: p.actor, action, object_type: 'webhook_endpoint', object_id: id, trace_id: request.id, data })
  }
  const config = { scope: 'webhooks:manage' }

  app.post<{ Body: { url: string, events: EventType[], description?: string } }>('/v1/webhooks', {
    config,
    schema: { body: { type: 'object', additionalProperties: false, required: ['url', 'events'], properties: { url: urlSchema, events: eventsSchema, description: descriptionSchema } } }
  }, async request => {
    const { tenant, mode } = scopeOf(request)
    const now = clock()
    const secret = newWebhookSecret()
    const endpoint: WebhookEndpoint = {
      id: newId('we', now), tenant_id: tenant, mode, url: checkedUrl(request.body.url, core.webhookEgress), events: request.body.events, description: request.body.description ?? '',
      status: 'enabled', disabled_reason: null, secrets: [{ secret, created_ms: now, expires_ms: null }], created_ms: now, updated_ms: now
    }
    await publish(request, endpoint.id, endpoint, 'webhook_endpoint.created', { url: endpoint.url, events: endpoint.events })
    return endpointResource(endpoint, secret)
  })

  app.get<{ Querystring: ListQuery }>('/v1/webhooks', { config, schema: { querystring: listQuerySchema } }, async request => {
    const page = await pageOf(scanEndpoints(state, scopeOf(request), request.query.starting_after), () => true, request.query)
    return { object: 'list', url: '/v1/webhooks', has_more: page.has_more, data: page.data.map(e => endpointResource(e)) }
  })

  app.get<{ Params: { id: string } }>('/v1/webhooks/:id', { config }, async request => endpointResource(await find(request, request.params.id)))

  app.post<{ Params: { id: string }, Body: { url?: string, events?: EventType[], description?: string, status?: 'enabled' | 'disabled' } }>('/v1/webhooks/:id', {
    config,
    schema: {
      body: {
        type: 'object',
        additionalProperties: false,
        minProperties: 1,
        properties: { url: urlSchema, events: eventsSchema, description: descriptionSchema, status: { type: 'string', enum: ['enabled', 'disabled'] } }
      }
    }
  }, async request => {
    const current = await find(request, request.params.id)
    const b = request.body
    const updated: WebhookEndpoint = {
      ...current,
      url: b.url === undefined ? current.url : checkedUrl(b.url, core.webhookEgress),
      events: b.events ?? current.events,
      description: b.description ?? current.description,
      status: b.status ?? current.status,
      disabled_reason: b.status === undefined ? current.disabled_reason : null,
      updated_ms: clock()
    }
    await publish(request, current.id, updated, 'webhook_endpoint.updated', { ...b })
    return endpointResource(updated)
  })

  app.delete<{ Params: { id: string } }>('/v1/webhooks/:id', { config }, async request => {
    const current = await find(request, request.params.id)
    await publish(request, current.id, null, 'webhook_endpoint.deleted')
    return { object: 'webhook_endpoint', id: current.id, deleted: true }
  })

  app.post<{ Params: { id: string } }>('/v1/webhooks/:id/rotate_secret', { config }, async request => {
    const current = await find(request, request.params.id)
    const now = clock()
    const secret = newWebhookSecret()
    const overlapEnds = now + ROTATION_OVERLAP_MS
    const secrets = [
      ...current.secrets.filter(s => s.expires_ms === null || s.expires_ms > now).map(s => ({ ...s, expires_ms: Math.min(s.expires_ms ?? overlapEnds, overlapEnds) })),
      { secret, created_ms: now, expires_ms: null }
    ]
    const updated = { ...current, secrets, updated_ms: now }
    await publish(request, current.id, updated, 'webhook_endpoint.secret_rotated', { previous_secrets_expire: Math.floor(overlapEnds / 1000) })
    return { ...endpointResource(updated, secret), previous_secret_expires: Math.floor(overlapEnds / 1000) }
  })

  app.get<{ Params: { id: string }, Querystring: ListQuery & { status?: Delivery['status'] } }>('/v1/webhooks/:id/deliveries', {
    config,
    schema: { querystring: { ...listQuerySchema, properties: { ...listQuerySchema.properties, status: { type: 'string', enum: ['pending', 'succeeded', 'failed'] } } } }
  }, async request => {
    const endpoint = await find(request, request.params.id)
    const q = request.query
    const page = await pageOf(scanDeliveries(state, scopeOf(request), endpoint.id, q.starting_after), d => q.status === undefined || d.status === q.status, q)
    return { object: 'list', url: `/v1/webhooks/${endpoint.id}/deliveries`, has_more: page.has_more, data: page.data.map(deliveryResource) }
  })

  const findDelivery = async (request: FastifyRequest, endpointId: string, id: string) => {
    const d = await getDeliveryView(state, scopeOf(request), id)
    if (d === undefined || d.endpoint_id !== endpointId) throw notFound('webhook delivery', id)
    return d
  }

  // One delivery with the event it carries (the exact body that was signed and sent).
  app.get<{ Params: { id: string, delivery: string } }>('/v1/webhooks/:id/deliveries/:delivery', { config }, async request => {
    const endpoint = await find(request, request.params.id)
    const d = await findDelivery(request, endpoint.id, request.params.delivery)
    return { ...deliveryResource(d), payload: JSON.parse(d.payload) as unknown }
  })

  app.post<{ Params: { id: string, delivery: string } }>('/v1/webhooks/:id/deliveries/:delivery/replay', { config }, async request => {
    const endpoint = await find(request, request.params.id)
    const d = await findDelivery(request, endpoint.id, request.params.delivery)
    if (endpoint.status !== 'enabled') throw new ApiError('endpoint_disabled', `Webhook endpoint ${endpoint.id} is disabled; enable it before replaying.`)
    const replayId = newId('rpl', clock())
    const p = request.caller
    // The same event (same id and body) goes back on the events topic addressed to this endpoint only.
    await core.log.append(core.topics.events, [replayRecord(p.tenant, d.payload, d.event_type, d.event_id, { endpoint: endpoint.id, id: replayId, of: d.id })])
    await core.audit.record({ tenant_id: p.tenant, mode: p.mode, actor: p.actor, action: 'webhook_delivery.replayed', object_type: 'webhook_endpoint', object_id: endpoint.id, trace_id: request.id, data: { delivery: d.id, replay: replayId } })
    const created = (JSON.parse(d.payload) as { created: number }).created
    return { object: 'webhook_delivery_replay', id: replayId, delivery: deliveryIdFor({ id: d.event_id, created }, endpoint.id, replayId), webhook_endpoint: endpoint.id, replay_of: d.id, status: 'queued' }
  })
}
