import { newId, stableId } from '../ids.js'
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

/** The replay a POST .../replay asks for: an id whose time part is when it was asked (ids.ts newId). */
export const newReplayId = (nowMs: number): string => newId('rpl', nowMs)

/**
 * A delivery's id: derived from the event, the endpoint and the replay (if any), so re-reading events never
 * duplicates one. Ids sort by time (ids.ts: `<prefix>_`, 10 time characters, then the rest): a delivery's time
 * is its event's, a replay's is when the replay was asked (its replay id's time characters), so a replay lists
 * as the newest delivery of its endpoint rather than next to an old event.
 */
export function deliveryIdFor (event: Pick<ServiceEvent, 'id' | 'created'>, endpointId: string, replayId = ''): string {
  const id = stableId('dlv', event.created * 1000, event.id, endpointId, replayId)
  if (replayId === '') return id
  const timeAt = (ofId: string) => ofId.indexOf('_') + 1
  const replayTime = replayId.slice(timeAt(replayId), timeAt(replayId) + ID_TIME_CHARS)
  return id.slice(0, timeAt(id)) + replayTime + id.slice(timeAt(id) + ID_TIME_CHARS)
}

/** How many characters of an id (after its prefix) encode its time (ids.ts). */
const ID_TIME_CHARS = 10
