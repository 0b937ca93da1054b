import { scan } from './rocks.js'
import { prefixRange, stateKey, TAG } from './keys.js'
import type { StateDb } from './state-db.js'
import type { Scope } from '../domain/scope.js'
import type { StoreWrites } from './writes.js'
import type { AuditEntry } from '../domain/records/audit.js'

/**
 * Audit entries of a tenant and mode by id, and indexed by object id and by trace id (values: entry ids).
 * Index keys sort by time, then by log position (`order`), so entries of one object keep the order they were written.
 */
export const auditKey = (tenant: string, mode: string, id: string) => stateKey(TAG.audit, tenant, mode, 'e', id)
export const auditByObjectKey = (tenant: string, mode: string, objectId: string, order: string) => stateKey(TAG.audit, tenant, mode, 'o', objectId, order)
export const auditByTraceKey = (tenant: string, mode: string, traceId: string, order: string) => stateKey(TAG.audit, tenant, mode, 't', traceId, order)

/** Audit entries of one object or one trace id, oldest first (index keys sort by time, then log position). */
export async function auditEntries (state: StateDb, scope: Scope, by: { objectId: string } | { traceId: string }): Promise<AuditEntry[]> {
  const [gte, lt] = 'objectId' in by ? prefixRange(TAG.audit, scope.tenant, scope.mode, 'o', by.objectId) : prefixRange(TAG.audit, scope.tenant, scope.mode, 't', by.traceId)
  const ids: string[] = []
  for await (const [, id] of scan(state.db, gte, lt)) ids.push(id.toString())
  const raw = await state.getMany(ids.map(id => auditKey(scope.tenant, scope.mode, id)))
  return raw.flatMap(r => r === undefined ? [] : [JSON.parse(r.toString()) as AuditEntry])
}

const orderOf = (e: AuditEntry, partition: number, offset: number) => `${String(e.at_ms).padStart(15, '0')}:${partition}:${String(offset).padStart(15, '0')}`

/** Applies an audit entry at its log position: by id, and indexed by object id and by trace id. */
export function applyAuditEntry (e: AuditEntry, position: { partition: number, offset: number }, writes: StoreWrites): void {
  const order = orderOf(e, position.partition, position.offset)
  writes.put(auditKey(e.tenant_id, e.mode, e.id), Buffer.from(JSON.stringify(e)))
  writes.put(auditByObjectKey(e.tenant_id, e.mode, e.object_id, order), Buffer.from(e.id))
  for (const trace of new Set([e.trace_id, e.subject_trace_id])) {
    if (trace != null) writes.put(auditByTraceKey(e.tenant_id, e.mode, trace, order), Buffer.from(e.id))
  }
}
