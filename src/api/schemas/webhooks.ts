import { EVENT_TYPES } from '../../domain/webhooks/types.js'
import { define, listOf } from './named.js'
import { int, livemode, object, oneOf, shape, str, time } from './fields.js'
import { HEALTH_WINDOW } from '../../domain/webhooks/health.js'

export const WebhookEndpoint = define('WebhookEndpoint', {
  description: 'Where the service sends signed events.',
  type: 'object',
  required: ['object', 'id', 'livemode', 'url', 'events', 'description', 'status', 'disabled_reason', 'health', 'created'],
  properties: {
    object: object('webhook_endpoint'),
    id: str(),
    livemode,
    url: str(),
    events: { type: 'array', items: oneOf(EVENT_TYPES) },
    description: str(),
    status: oneOf(['enabled', 'disabled']),
    disabled_reason: { type: ['string', 'null'] },
    health: shape({
      state: oneOf(['healthy', 'degraded', 'failing', 'idle'], 'failing: none of the recent deliveries succeeded and some failed or are being retried; degraded: some succeeded, some did not; healthy: all attempted ones succeeded; idle: none attempted yet (no deliveries, or only waiting ones).'),
      window: int(`How many of the newest deliveries were judged (at most ${HEALTH_WINDOW}).`),
      succeeded: int(),
      failed: int('Dead-lettered: every attempt failed.'),
      retrying: int('Pending after at least one failed attempt.'),
      waiting: int('Pending, not attempted yet (a delivery just made, or a replay just queued).'),
      last_success: { type: ['integer', 'null'], description: 'The newest successful attempt among them (unix seconds); null when none succeeded.' }
    }, [], { description: `How the endpoint's newest deliveries (at most ${HEALTH_WINDOW}) went: an endpoint can be enabled and failing.` }),
    created: time(),
    secret: str('The signing secret (whsec_...): only in the answer that created or rotated it.'),
    previous_secret_expires: time('After a rotation: until then the previous secret signs too (unix seconds); only in the rotation\u2019s answer.')
  }
})
export const WebhookEndpointList = listOf(WebhookEndpoint)

const nullableTime = { type: ['integer', 'null'], description: 'Unix time, seconds.' }
const error = { type: ['string', 'null'], description: 'Why the attempt failed: HTTP <status>, or a category (timeout, connection_refused, tls_error, ...).' }

export const WebhookDelivery = define('WebhookDelivery', {
  description: 'One event sent to one endpoint, with every attempt. Lists are newest first.',
  type: 'object',
  required: ['object', 'id', 'webhook_endpoint', 'event', 'status', 'attempts_count', 'attempts', 'last_error', 'next_attempt', 'replay_of', 'created'],
  properties: {
    object: object('webhook_delivery'),
    id: str(),
    webhook_endpoint: str('The endpoint\u2019s id.'),
    event: shape({ id: str(), type: oneOf(EVENT_TYPES) }),
    status: oneOf(['pending', 'succeeded', 'failed']),
    attempts_count: int(),
    attempts: { type: 'array', items: shape({ at: time(), status_code: { type: ['integer', 'null'] }, error, duration_ms: int() }) },
    last_error: error,
    next_attempt: nullableTime,
    replay_of: { type: ['string', 'null'], description: 'The delivery this one replays (POST .../replay answers the new delivery, queued: status pending, no attempt yet).' },
    created: time(),
    payload: { type: 'object', additionalProperties: true, description: 'The event as delivered (GET of one delivery only).' }
  }
})
export const WebhookDeliveryList = listOf(WebhookDelivery)
