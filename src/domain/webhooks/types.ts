import { stableId } from '../ids.js'
import type { Mode } from '../scope.js'
import type { ServiceEvent } from '../records/events.js'

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

/** A delivery's id: derived from the event, the endpoint and the replay (if any), so re-reading events never duplicates one. */
export function deliveryIdFor (event: Pick<ServiceEvent, 'id' | 'created'>, endpointId: string, replayId = ''): string {
  return stableId('dlv', event.created * 1000, event.id, endpointId, replayId)
}
