import type { Case } from '../domain/cases/types.js'
import type { Subject, CaseGate } from '../domain/decision/types.js'
import { scan, scanJson } from './rocks.js'
import { prefixRange, rangeAfter, stateId, stateKey, TAG } from './keys.js'
import type { StateDb } from './state-db.js'
import type { Scope } from '../domain/scope.js'
import type { StoreWrites } from './writes.js'
import type { CaseRecord } from '../domain/records/cases.js'
import { caseBySubjectKey, subjectIndexOps, unclosedIndexOp, unclosedKey, type UnclosedEntry } from './case-indexes.js'
import { storedValues } from './stored-values.js'

export const caseKey = (scope: Scope, id: string) => stateKey(TAG.caseRecord, scope.tenant, scope.mode, id)
export const caseByTraceKey = (scope: Scope, traceId: string) => stateKey(TAG.caseByTrace, scope.tenant, scope.mode, traceId)
/** Case outcomes in force for one subject value (CaseGate[] as JSON), read by Stage 3. */
export const caseGateKey = (scope: Scope, subject: Subject, value: string) => stateKey(TAG.caseGate, scope.tenant, scope.mode, subject, value)
/** The text of caseGateKey (stateId): for in-memory lookups that need no bytes. */
export const caseGateId = (scope: Scope, subject: Subject, value: string) => stateId(TAG.caseGate, scope.tenant, scope.mode, subject, value)

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

/**
 * Open and in-review cases of a tenant and mode in id order, after `startingAfter` when given: the queue index,
 * so closed cases (most of a tenant's, over time) cost nothing to skip.
 */
export async function * scanUnclosed (state: StateDb, scope: Scope, startingAfter?: string, limit?: number): AsyncGenerator<UnclosedEntry> {
  const [from, lt] = rangeAfter(prefixRange(TAG.caseUnclosed, scope.tenant, scope.mode), startingAfter === undefined ? undefined : unclosedKey(scope, startingAfter))
  yield * scanJson<UnclosedEntry>(state.db, from, lt, limit === undefined ? {} : { limit })
}

/** The cases of the ids given, read a hundred at a time, in order (an id whose case is gone is passed over). */
export async function * casesOfIds (state: StateDb, scope: Scope, ids: AsyncIterable<string>): AsyncGenerator<Case> {
  async function * keys () { for await (const id of ids) yield caseKey(scope, id) }
  for await (const raw of storedValues(state, keys())) yield JSON.parse(raw.toString()) as Case
}

/** Ids of the cases about one subject value, in id order, after `startingAfter` when given: the subject index. */
export async function * caseIdsOfSubject (state: StateDb, scope: Scope, subject: Subject, value: string, startingAfter?: string): AsyncGenerator<string> {
  const [from, lt] = rangeAfter(prefixRange(TAG.caseBySubject, scope.tenant, scope.mode, subject, value), startingAfter === undefined ? undefined : caseBySubjectKey(scope, subject, value, startingAfter))
  // The case id is the key's last part (a value may hold a NUL; a case id never does).
  for await (const [key] of scan(state.db, from, lt)) yield key.subarray(key.lastIndexOf(0) + 1).toString()
}

export type CommandOutcome = CaseRecord['command'] & { case: Case | null }

/** Subjects whose later decisions a case outcome gates; an IP is too often shared to gate on. */
const GATED_SUBJECTS: readonly Subject[] = ['user_id', 'email', 'device_id', 'card']

/** The Stage 3 gate a closed case sets on its subjects. */
export function gateOf (c: Case): CaseGate | undefined {
  if (c.outcome === null) return undefined
  const last = c.history[c.history.length - 1]!
  return { case_id: c.id, outcome: c.outcome, at_ms: last.at_ms, until_ms: c.outcome === 'safe' ? last.demote_until_ms ?? last.at_ms : null }
}

async function writeGates (writes: StoreWrites, c: Case): Promise<void> {
  const gate = gateOf(c)
  if (gate === undefined) return
  for (const subject of GATED_SUBJECTS) {
    const value = c.subjects[subject]
    if (value === undefined) continue
    const key = caseGateKey({ tenant: c.tenant_id, mode: c.mode }, subject, value)
    const raw = await writes.get(key)
    const gates = (raw === undefined ? [] : JSON.parse(raw.toString()) as CaseGate[]).filter(g => g.case_id !== c.id && (g.until_ms === null || g.until_ms > gate.at_ms))
    writes.put(key, Buffer.from(JSON.stringify([...gates, gate])))
  }
}

/**
 * Applies a case state of the `cases` topic (written by the case writer): the case by id and by trace id, and
 * the Stage 3 gates of closed cases per subject. A state replaces the stored one only when its version is
 * higher, so replays and duplicates change nothing.
 */
export async function applyCaseState ({ case: c }: CaseRecord, writes: StoreWrites): Promise<void> {
  if (c === null) return
  const scope = { tenant: c.tenant_id, mode: c.mode }
  const raw = await writes.get(caseKey(scope, c.id))
  const stored = raw === undefined ? undefined : JSON.parse(raw.toString()) as Case
  if (stored === undefined || c.version > stored.version) {
    writes.put(caseKey(scope, c.id), Buffer.from(JSON.stringify(c)))
    const index = unclosedIndexOp(c)
    if (index.type === 'put') writes.put(index.key, index.value); else writes.del(index.key)
    if (stored === undefined) for (const op of subjectIndexOps(c)) writes.put(op.key, op.value)
    if (c.trace_id !== null) writes.put(caseByTraceKey(scope, c.trace_id), Buffer.from(c.id))
    if (c.outcome !== stored?.outcome) await writeGates(writes, c)
  }
}
