import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Core } from '../../services/core.js'
import { newId } from '../../domain/ids.js'
import { endpointHealthOf, failedUnreplayedIds, getDeliveryView, getEndpoint, scanDeliveries, scanDeliveriesNewestFirst, scanEndpoints } from '../../stores/webhooks.js'
import type { StateDb } from '../../stores/state-db.js'
import type { Scope } from '../../domain/scope.js'
import { newWebhookSecret } from '../../domain/webhooks/signature.js'
import { deliveryIdFor, EVENT_TYPES, newReplayId, type EventType, type WebhookEndpoint } from '../../domain/webhooks/types.js'
import { ApiError, notFound } from '../../services/errors.js'
import { listQuerySchema, pageOf, type ListQuery } from '../pagination.js'
import { publishChange } from '../../services/publish-change.js'
import { type WebhookRecord, webhookRecord } from '../../domain/records/webhooks.js'
import { deliveryRecord, type Delivery } from '../../domain/records/webhook-deliveries.js'
import { replayRecord } from '../../domain/records/events.js'
import type { EgressPolicy } from '../../domain/webhooks/egress-policy.js'
import { shownDeliveryError } from '../../domain/webhooks/delivery-errors.js'
import { appendConfirmed } from '../../stream/confirmation.js'
/** Previous secrets keep signing this long after a rotation. */
const ROTATION_OVERLAP_MS = 24 * 3_600_000
/** The deliveries of a newest-first scan down to `id` (exclusive), or all of them without one. */
async function * newerThan (deliveries: AsyncIterable<Delivery>, id: string | undefined): AsyncGenerator<Delivery> {
  for await (const d of deliveries) {
    if (id !== undefined && d.id <= id) return
    yield d
  }
}

/** The most deliveries one replay call queues: what a tenant's call can cost is bounded. */
export const REPLAY_BATCH_LIMIT = 100

export function endpointResource (e: WebhookEndpoint, health: Awaited<ReturnType<typeof healthResource>>, secret?: string) {
  return {
    object: 'webhook_endpoint',
    id: e.id,
    livemode: e.mode === 'live',
    url: e.url,
    events: e.events,
    description: e.description,
    status: e.status,
    disabled_reason: e.disabled_reason,
    health,
    created: Math.floor(e.created_ms / 1000),
    ...(secret === undefined ? {} : { secret })
  }
}

/** An endpoint's health as the API shows it. */
async function healthResource (state: StateDb, scope: Scope, endpointId: string) {
  const h = await endpointHealthOf(state, scope, endpointId)
  return { state: h.state, window: h.window, succeeded: h.succeeded, failed: h.failed, retrying: h.retrying, waiting: h.waiting, last_success: h.last_success_ms === null ? null : Math.floor(h.last_success_ms / 1000) }
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

export function webhookRoutes (app: FastifyInstance, core: Pick<Core, 'audit' | 'clock' | 'deliveries' | 'log' | 'state' | 'topics' | 'webhooks' | 'webhookEgress'>): void {
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
  const resource = async (request: FastifyRequest, e: WebhookEndpoint, secret?: string) => endpointResource(e, await healthResource(state, scopeOf(request), e.id), secret)

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
    return await resource(request, endpoint, secret)
  })

  app.get<{ Querystring: ListQuery }>('/v1/webhooks', { config, schema: { querystring: listQuerySchema } }, async request => {
    const page = await pageOf(scanEndpoints(state, scopeOf(request), request.query.starting_after), () => true, request.query)
    return { object: 'list', url: '/v1/webhooks', has_more: page.has_more, data: await Promise.all(page.data.map(async e => await resource(request, e))) }
  })

  app.get<{ Params: { id: string } }>('/v1/webhooks/:id', { config }, async request => await resource(request, await find(request, request.params.id)))

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
    return await resource(request, updated)
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
    return { ...await resource(request, updated, secret), previous_secret_expires: Math.floor(overlapEnds / 1000) }
  })

  app.get<{ Params: { id: string }, Querystring: ListQuery & { ending_before?: string, status?: Delivery['status'] } }>('/v1/webhooks/:id/deliveries', {
    config,
    schema: {
      querystring: {
        ...listQuerySchema,
        properties: {
          ...listQuerySchema.properties,
          starting_after: { type: 'string', minLength: 1, description: 'A delivery id: the page holds the deliveries older than it (the last id of the page before).' },
          ending_before: { type: 'string', minLength: 1, description: 'A delivery id: the page holds the deliveries newer than it (the first id of the page after), newest first; has_more then says whether even newer ones exist. With starting_after too: the deliveries between the two, newest first.' },
          status: { type: 'string', enum: ['pending', 'succeeded', 'failed'] }
        }
      }
    }
  }, async request => {
    const endpoint = await find(request, request.params.id)
    const q = request.query
    const keep = (d: Delivery) => q.status === undefined || d.status === q.status
    const scope = scopeOf(request)
    // Newest first. ending_before alone reads toward newer deliveries (id order) and turns the page around; with
    // starting_after too, the page holds those between the two, newest first.
    const towardNewer = q.ending_before !== undefined && q.starting_after === undefined
    const page = !towardNewer
      ? await pageOf(newerThan(scanDeliveriesNewestFirst(state, scope, endpoint.id, q.starting_after), q.ending_before), keep, q)
      : await pageOf(scanDeliveries(state, scope, endpoint.id, q.ending_before), keep, q)
    const data = towardNewer ? page.data.reverse() : page.data
    return { object: 'list', url: `/v1/webhooks/${endpoint.id}/deliveries`, has_more: page.has_more, data: data.map(deliveryResource) }
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

  /**
   * Sends these deliveries' events again to their endpoint, each as a new delivery that names the one it
   * replays (replay_of). The new deliveries' first state (queued, version 0) is published and applied here
   * before answering, so each id answered is found by GET at once; then the events go back on the events
   * topic addressed to this endpoint only, with the replay's id from which the delivery process derives the
   * same delivery id (deliveryIdFor).
   */
  const replay = async (request: FastifyRequest, endpoint: WebhookEndpoint, originals: Delivery[]): Promise<Delivery[]> => {
    if (endpoint.status !== 'enabled') throw new ApiError('endpoint_disabled', `Webhook endpoint ${endpoint.id} is disabled; enable it before replaying.`)
    const unsubscribed = originals.find(d => !endpoint.events.includes(d.event_type))
    if (unsubscribed !== undefined) throw new ApiError('event_not_subscribed', `Webhook endpoint ${endpoint.id} no longer subscribes to ${unsubscribed.event_type} (delivery ${unsubscribed.id}); add the event type before replaying.`)
    const p = request.caller
    const now = clock()
    const queued = originals.map(d => {
      const replayId = newReplayId(now)
      const created = (JSON.parse(d.payload) as { created: number }).created
      const delivery: Delivery = { ...d, id: deliveryIdFor({ id: d.event_id, created }, endpoint.id, replayId), status: 'pending', attempts: [], next_attempt_ms: now, created_ms: now, replay_of: d.id, version: 0 }
      return { replayId, original: d, delivery }
    })
    if (queued.length === 0) return []
    const applied = Promise.all(queued.map(async q => await core.deliveries.expect(`${q.delivery.id}@0`)))
    applied.catch(() => {})
    await appendConfirmed(core.log, core.topics.webhookDeliveries, queued.map(q => deliveryRecord(q.delivery)))
    await core.log.append(core.topics.events, queued.map(q => replayRecord(p.tenant, q.original.payload, q.original.event_type, q.original.event_id, { endpoint: endpoint.id, id: q.replayId, of: q.original.id })))
    await applied
    await Promise.all(queued.map(async q => await core.audit.record({
      tenant_id: p.tenant, mode: p.mode, actor: p.actor, action: 'webhook_delivery.replayed', object_type: 'webhook_endpoint', object_id: endpoint.id, trace_id: request.id, data: { delivery: q.original.id, replay: q.delivery.id }
    })))
    return queued.map(q => q.delivery)
  }

  app.post<{ Params: { id: string, delivery: string } }>('/v1/webhooks/:id/deliveries/:delivery/replay', { config }, async request => {
    const endpoint = await find(request, request.params.id)
    const d = await findDelivery(request, endpoint.id, request.params.delivery)
    const [delivery] = await replay(request, endpoint, [d])
    return deliveryResource(delivery!)
  })

  // Several at once: the ids given (all found, or nothing replayed), or the dead letters not replayed yet, newest first.
  app.post<{ Params: { id: string }, Body: { deliveries?: string[] } }>('/v1/webhooks/:id/deliveries/replay', {
    config: { ...config, bodyOptional: true },
    // No body reads as {}: every failed delivery not replayed yet (a body of JSON null is a body, and refused).
    preValidation: async request => { if (request.body === undefined) request.body = {} },
    schema: {
      body: {
        type: 'object',
        additionalProperties: false,
        properties: {
          deliveries: {
            type: 'array', minItems: 1, maxItems: REPLAY_BATCH_LIMIT, uniqueItems: true, items: { type: 'string', minLength: 1, maxLength: 64 },
            description: `Delivery ids of this endpoint, at most ${REPLAY_BATCH_LIMIT}. Without it: the endpoint's failed deliveries not replayed yet, newest first, at most ${REPLAY_BATCH_LIMIT} (has_more: more remain; call again).`
          }
        }
      }
    }
  }, async request => {
    const endpoint = await find(request, request.params.id)
    const scope = scopeOf(request)
    const ids = request.body.deliveries ?? await failedUnreplayedIds(state, scope, endpoint.id, REPLAY_BATCH_LIMIT + 1)
    const chosen = ids.slice(0, REPLAY_BATCH_LIMIT)
    // A delivery named in the body that is not this endpoint's (another's, another tenant's, none) conflicts with
    // what the endpoint holds: 409, nothing replayed. Not 404: the endpoint of the path is there; not 400: the
    // body is well formed.
    const originals: Delivery[] = []
    for (const [i, id] of chosen.entries()) {
      const d = await getDeliveryView(state, scope, id)
      if (d === undefined || d.endpoint_id !== endpoint.id) throw new ApiError('delivery_not_replayable', `'${id}' is not a delivery of ${endpoint.id}; nothing was replayed.`, `deliveries[${i}]`)
      originals.push(d)
    }
    const replays = await replay(request, endpoint, originals)
    return { object: 'list', url: `/v1/webhooks/${endpoint.id}/deliveries/replay`, has_more: ids.length > chosen.length, data: replays.map(deliveryResource) }
  })
}
