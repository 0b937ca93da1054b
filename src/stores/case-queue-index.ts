import type { Case } from '../domain/cases/types.js'
import type { Scope } from '../domain/scope.js'
import { stateKey, TAG } from './keys.js'

/** An open or in-review case as the queue index keeps it: enough to count and filter without reading the case. */
export interface UnclosedEntry { id: string, status: 'open' | 'in_review', assignee: string | null, created_ms: number }
export const unclosedKey = (scope: Scope, id: string) => stateKey(TAG.caseUnclosed, scope.tenant, scope.mode, id)
const unclosedValue = (c: Case) => Buffer.from(JSON.stringify({ id: c.id, status: c.status, assignee: c.assignee, created_ms: c.created_ms }))

/** The queue index's write for a case's state: its entry while open or in review, none once closed. */
export function unclosedIndexOp (c: Case): { type: 'put', key: Buffer, value: Buffer } | { type: 'del', key: Buffer } {
  const key = unclosedKey({ tenant: c.tenant_id, mode: c.mode }, c.id)
  return c.status === 'closed' ? { type: 'del', key } : { type: 'put', key, value: unclosedValue(c) }
}

