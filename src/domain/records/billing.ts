import type { TransactionRecord } from './decisions.js'
import type { LogRecord } from './log-record.js'

/** A billable decision: live decisions only (sandbox ones are never billed, nor are shadow outcomes). Pure. */
export function billingRecord (d: TransactionRecord): LogRecord | undefined {
  if (!d.livemode) return undefined
  const value = { trace_id: d.trace_id, tenant_id: d.tenant_id, event: d.request.event, action: d.decision.action, created_ms: d.created_ms, units: 1 }
  return { key: `${d.tenant_id}:${d.trace_id}`, value: Buffer.from(JSON.stringify(value)), headers: { tenant_id: d.tenant_id, trace_id: d.trace_id } }
}
