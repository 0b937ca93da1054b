import { SUBJECTS, subjectValue } from '../domain/decision/subjects.js'
import type { Subject, ScoreRequest, Override } from '../domain/decision/types.js'
import { stateId, stateKey, TAG } from './keys.js'
import type { Scope } from '../domain/scope.js'
import type { StoreWrites } from './writes.js'
import type { OverrideRecord } from '../domain/records/overrides.js'

/** Admin overrides in force for one (tenant, mode, subject, value), as a JSON array. */
export function overrideKey (scope: Scope, subject: Subject, value: string): Buffer {
  return stateKey(TAG.override, scope.tenant, scope.mode, subject, value)
}

/** The text of overrideKey (stateId): for in-memory lookups that need no bytes. */
export const overrideId = (scope: Scope, subject: Subject, value: string): string => stateId(TAG.override, scope.tenant, scope.mode, subject, value)

export function overrideByIdKey (scope: Scope, id: string): Buffer {
  return stateKey(TAG.overrideById, scope.tenant, scope.mode, id)
}

/** Keys (or their ids) of per-subject records to read for a request: one per subject it names. */
export function subjectKeys<K> (request: ScoreRequest, key: (subject: Subject, value: string) => K): K[] {
  const keys: K[] = []
  for (const subject of SUBJECTS) {
    const value = subjectValue(request, subject)
    if (value !== undefined) keys.push(key(subject, value))
  }
  return keys
}

/** Concatenates JSON arrays read from per-subject keys. */
export function parseArrays<T> (values: Array<Buffer | undefined>): T[] {
  const out: T[] = []
  for (const v of values) if (v !== undefined) out.push(...JSON.parse(v.toString()) as T[])
  return out
}

/**
 * Applies an override change: by id (for the API) and per subject value (for Stage 3). Expired overrides are
 * dropped from a subject's list whenever that list changes.
 */
export async function applyOverrideChange (change: OverrideRecord, writes: StoreWrites): Promise<void> {
  const scope = { tenant: change.tenant_id, mode: change.mode }
  const o = change.override
  const subjectKey = overrideKey(scope, o.subject, o.value)
  const raw = await writes.get(subjectKey)
  const kept = (raw === undefined ? [] : JSON.parse(raw.toString()) as Override[])
    .filter(x => x.id !== o.id && (x.expires_at_ms === null || x.expires_at_ms > o.created_ms))
  const list = change.deleted ? kept : [...kept, o]
  if (list.length === 0) writes.del(subjectKey)
  else writes.put(subjectKey, Buffer.from(JSON.stringify(list)))
  writes.put(overrideByIdKey(scope, o.id), Buffer.from(JSON.stringify({ ...o, deleted: change.deleted })))
}
