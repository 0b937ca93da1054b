import type { Mode } from '../scope.js'
import type { LogRecord } from './log-record.js'

/** One audit entry: who changed what, with the request's trace id, on the append-only `audit` topic. */
export interface AuditEntry {
  id: string
  tenant_id: string
  mode: Mode
  /** API key id, or the component that acted (e.g. webhook-delivery). */
  actor: string
  /** e.g. webhook_endpoint.created, webhook_endpoint.secret_rotated */
  action: string
  object_type: string
  object_id: string
  /** The request that made the change (its X-Trace-Id). */
  trace_id: string | null
  /** The decision the change concerns (a case's trace id), when there is one. */
  subject_trace_id?: string | null
  at_ms: number
  data: Record<string, unknown>
}

export type AuditInput = Omit<AuditEntry, 'id' | 'at_ms'>

/** Keyed by tenant and object: an object's entries keep their order. */
export const auditRecord = (e: AuditEntry): LogRecord => ({ key: `${e.tenant_id}:${e.object_id}`, value: Buffer.from(JSON.stringify(e)), headers: { tenant_id: e.tenant_id } })
