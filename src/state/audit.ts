import type { AuditEntry } from '../audit/audit-log.js'
import { auditByObjectKey, auditByTraceKey, auditKey } from '../pipeline/audit-materializer.js'
import { scan } from '../storage/rocks.js'
import { prefixRange, TAG } from './keys.js'
import type { StateDb } from './state-db.js'
import type { Scope } from './velocity.js'

/** Audit entries of one object or one trace id, oldest first (entry ids sort by time). */
export async function auditEntries (state: StateDb, scope: Scope, by: { objectId: string } | { traceId: string }): Promise<AuditEntry[]> {
  const [gte, lt] = 'objectId' in by ? prefixRange(TAG.audit, scope.tenant, scope.mode, 'o', by.objectId) : prefixRange(TAG.audit, scope.tenant, scope.mode, 't', by.traceId)
  const ids: string[] = []
  for await (const [, id] of scan(state.db, gte, lt)) ids.push(id.toString())
  const raw = await state.getMany(ids.map(id => auditKey(scope.tenant, scope.mode, id)))
  return raw.flatMap(r => r === undefined ? [] : [JSON.parse(r.toString()) as AuditEntry])
}
