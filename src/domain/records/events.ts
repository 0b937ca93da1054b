import { createHash } from 'node:crypto'
import type { LogRecord } from './log-record.js'

/** The webhook event envelope (docs/webhooks.md, Delivery): id stable across retries, type from the catalog. */
export interface ServiceEvent {
  id: string
  type: 'score.async' | 'case.created' | 'case.dispositioned' | 'rule.triggered' | 'signal.updated'
  /** Unix seconds. */
  created: number
  livemode: boolean
  data: Record<string, unknown>
}

/** An event id derived from what caused it: replays and retries of the same cause give the same id. */
export function stableEventId (...cause: string[]): string {
  return 'evt_' + createHash('sha256').update(cause.join('\u0000')).digest('hex').slice(0, 24)
}

/** Events are keyed by tenant (order per tenant); the tenant travels in a header, never in the payload. */
export function eventRecord (tenantId: string, event: ServiceEvent): LogRecord {
  return { key: tenantId, value: Buffer.from(JSON.stringify(event)), headers: { tenant_id: tenantId, type: event.type, event_id: event.id } }
}

export function parseEvent (value: Buffer): ServiceEvent {
  return JSON.parse(value.toString()) as ServiceEvent
}

/** A delivered event sent again to one endpoint: the same event (same id and body) with the replay's headers. */
export function replayRecord (tenantId: string, payload: string, eventType: string, eventId: string, replay: { endpoint: string, id: string, of: string }): LogRecord {
  return {
    key: tenantId,
    value: Buffer.from(payload),
    headers: { tenant_id: tenantId, type: eventType, event_id: eventId, [REPLAY_HEADERS.endpoint]: replay.endpoint, [REPLAY_HEADERS.id]: replay.id, [REPLAY_HEADERS.of]: replay.of }
  }
}

/** Headers of an event re-appended by POST /v1/webhooks/{id}/deliveries/{id}/replay: one endpoint, a new delivery. */
export const REPLAY_HEADERS = { endpoint: 'replay_endpoint', id: 'replay_id', of: 'replay_of' } as const
