import type { ServiceEvent } from '../../domain/events.js'
import type { LogRecord } from '../eventlog/event-log.js'

/** Events are keyed by tenant (order per tenant); the tenant travels in a header, never in the payload. */
export function eventRecord (tenantId: string, event: ServiceEvent): LogRecord {
  return { key: tenantId, value: Buffer.from(JSON.stringify(event)), headers: { tenant_id: tenantId, type: event.type, event_id: event.id } }
}

export function parseEvent (value: Buffer): ServiceEvent {
  return JSON.parse(value.toString()) as ServiceEvent
}
