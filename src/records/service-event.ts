import type { LogRecord } from '../eventlog/event-log.js'

/** The webhook event envelope (DESIGN.md): id stable across retries, type from the catalog. */
export interface ServiceEvent {
  id: string
  type: 'score.async' | 'case.created' | 'case.dispositioned' | 'rule.triggered' | 'signal.updated'
  /** Unix seconds. */
  created: number
  livemode: boolean
  data: Record<string, unknown>
}

/** Events are keyed by tenant (order per tenant); the tenant travels in a header, never in the payload. */
export function eventRecord (tenantId: string, event: ServiceEvent): LogRecord {
  return { key: tenantId, value: Buffer.from(JSON.stringify(event)), headers: { tenant_id: tenantId, type: event.type, event_id: event.id } }
}

export function parseEvent (value: Buffer): ServiceEvent {
  return JSON.parse(value.toString()) as ServiceEvent
}
