import { stableId } from '../ids.js'
import type { ServiceEvent } from '../events.js'
import type { Mode } from '../scope.js'

export type EventType = ServiceEvent['type']
export const EVENT_TYPES: readonly EventType[] = ['score.async', 'case.created', 'case.dispositioned', 'rule.triggered', 'signal.updated']

/** A signing secret; after a rotation the previous one keeps signing until `expires_ms`. */
export interface WebhookSecret { secret: string, created_ms: number, expires_ms: number | null }

export interface WebhookEndpoint {
  id: string
  tenant_id: string
  mode: Mode
  url: string
  events: EventType[]
  description: string
  status: 'enabled' | 'disabled'
  /** Why the service disabled it (e.g. the receiver answered 410 Gone); null when enabled or disabled by the tenant. */
  disabled_reason: string | null
  secrets: WebhookSecret[]
  created_ms: number
  updated_ms: number
}

/** A record of the compacted `webhooks` topic (key tenant:mode:id); `endpoint` null once deleted. */
export interface WebhookRecord {
  tenant_id: string
  mode: Mode
  id: string
  endpoint: WebhookEndpoint | null
  change_id: string
  actor: string
}

export interface DeliveryAttempt { at_ms: number, status_code: number | null, error: string | null, duration_ms: number }

/** One event for one endpoint: its attempts and what happens next. */
export interface Delivery {
  id: string
  tenant_id: string
  mode: Mode
  endpoint_id: string
  event_id: string
  event_type: EventType
  /** The exact body sent: the event envelope as it is on the events topic. */
  payload: string
  /** pending (next attempt at next_attempt_ms), succeeded, or failed (dead-lettered). */
  status: 'pending' | 'succeeded' | 'failed'
  attempts: DeliveryAttempt[]
  next_attempt_ms: number | null
  created_ms: number
  /** Set on a replay: the delivery it replays. */
  replay_of: string | null
  /** Increases with every change (a state re-published after a crash may repeat a version). */
  version: number
}

/** Headers of an event re-appended by POST /v1/webhooks/{id}/deliveries/{id}/replay: one endpoint, a new delivery. */
export const REPLAY_HEADERS = { endpoint: 'replay_endpoint', id: 'replay_id', of: 'replay_of' } as const

/** A delivery's id: derived from the event, the endpoint and the replay (if any), so re-reading events never duplicates one. */
export function deliveryIdFor (event: Pick<ServiceEvent, 'id' | 'created'>, endpointId: string, replayId = ''): string {
  return stableId('dlv', event.created * 1000, event.id, endpointId, replayId)
}
