import type { TransactionRecord } from '../domain/transaction.js'
import type { LogRecord } from '../stream/eventlog/event-log.js'
import { mapDecisions, type Topology } from './index.js'

/** A billable decision: live decisions only (sandbox ones are never billed, nor are shadow outcomes). Pure. */
export function billingRecord (d: TransactionRecord): LogRecord | undefined {
  if (!d.livemode) return undefined
  const value = { trace_id: d.trace_id, tenant_id: d.tenant_id, event: d.request.event, action: d.decision.action, created_ms: d.created_ms, units: 1 }
  return { key: `${d.tenant_id}:${d.trace_id}`, value: Buffer.from(JSON.stringify(value)), headers: { tenant_id: d.tenant_id, trace_id: d.trace_id } }
}

/** decisions -> `billing`, keyed by trace id: at-least-once, so billing de-duplicates by trace_id. */
export const billing: Topology = {
  name: 'billing',
  description: 'one billing event per live decision, keyed by trace_id',
  build: ctx => ({
    processors: [mapDecisions(ctx, 'billing', ctx.topics.billing, d => {
      const record = billingRecord(d)
      return record === undefined ? [] : [record]
    })]
  })
}
