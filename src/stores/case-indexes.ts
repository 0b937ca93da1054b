import type { Case } from '../domain/cases/types.js'
import type { Subject } from '../domain/decision/types.js'
import type { Scope } from '../domain/scope.js'
import { stateKey, TAG } from './keys.js'
import { INDEXED_VALUE_MAX } from './transaction-records.js'

/*
 * The indexes of cases, written beside each case state (stores/cases.ts, applyCaseState): the queue index of
 * open and in-review cases, and the subject index (a case under each of its subjects' values).
 */

/** An open or in-review case as the queue index keeps it: enough to count and filter without reading the case. */
export interface UnclosedEntry { id: string, status: 'open' | 'in_review', assignee: string | null, created_ms: number }
export const unclosedKey = (scope: Scope, id: string) => stateKey(TAG.caseUnclosed, scope.tenant, scope.mode, id)
const unclosedValue = (c: Case) => Buffer.from(JSON.stringify({ id: c.id, status: c.status, assignee: c.assignee, created_ms: c.created_ms }))

/** The queue index's write for a case's state: its entry while open or in review, none once closed. */
export function unclosedIndexOp (c: Case): { type: 'put', key: Buffer, value: Buffer } | { type: 'del', key: Buffer } {
  const key = unclosedKey({ tenant: c.tenant_id, mode: c.mode }, c.id)
  return c.status === 'closed' ? { type: 'del', key } : { type: 'put', key, value: unclosedValue(c) }
}

const ENTRY = Buffer.alloc(0)
export const caseBySubjectKey = (scope: Scope, subject: Subject, value: string, id: string) => stateKey(TAG.caseBySubject, scope.tenant, scope.mode, subject, value, id)

/** A case's subject index entries: one per subject value it names (they never change after it opens). */
export function subjectIndexOps (c: Case): Array<{ type: 'put', key: Buffer, value: Buffer }> {
  const scope = { tenant: c.tenant_id, mode: c.mode }
  return (Object.entries(c.subjects) as Array<[Subject, string]>)
    // the longest value indexed is the longest a search can name, as for decisions
    .filter(([, value]) => value !== '' && value.length <= INDEXED_VALUE_MAX)
    .map(([subject, value]) => ({ type: 'put', key: caseBySubjectKey(scope, subject, value, c.id), value: ENTRY }))
}
