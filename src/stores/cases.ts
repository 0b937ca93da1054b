import type { Case } from '../domain/cases/types.js'
import type { Subject } from '../domain/decision/types.js'
import { scanJson } from './rocks.js'
import { prefixRange, rangeAfter, stateKey, TAG } from './keys.js'
import type { StateDb } from './state-db.js'
import type { Scope } from '../domain/scope.js'

export const caseKey = (scope: Scope, id: string) => stateKey(TAG.caseRecord, scope.tenant, scope.mode, id)
export const caseByTraceKey = (scope: Scope, traceId: string) => stateKey(TAG.caseByTrace, scope.tenant, scope.mode, traceId)
/** Case outcomes in force for one subject value (CaseGate[] as JSON), read by Stage 3. */
export const caseGateKey = (scope: Scope, subject: Subject, value: string) => stateKey(TAG.caseGate, scope.tenant, scope.mode, subject, value)

export async function getCase (state: StateDb, scope: Scope, id: string): Promise<Case | undefined> {
  const raw = await state.get(caseKey(scope, id))
  return raw === undefined ? undefined : JSON.parse(raw.toString()) as Case
}

export async function lookupCaseIdByTrace (state: StateDb, scope: Scope, traceId: string): Promise<string | undefined> {
  return (await state.get(caseByTraceKey(scope, traceId)))?.toString()
}

/** Cases of a tenant and mode in id order (ids sort by creation time), after `startingAfter` when given. */
export async function * scanCases (state: StateDb, scope: Scope, startingAfter?: string): AsyncGenerator<Case> {
  const [from, lt] = rangeAfter(prefixRange(TAG.caseRecord, scope.tenant, scope.mode), startingAfter === undefined ? undefined : caseKey(scope, startingAfter))
  yield * scanJson<Case>(state.db, from, lt)
}
