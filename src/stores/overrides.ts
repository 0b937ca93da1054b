import { SUBJECTS, subjectValue } from '../domain/decision/subjects.js'
import type { Subject, ScoreRequest } from '../domain/decision/types.js'
import { stateKey, TAG } from './keys.js'
import type { Scope } from '../domain/scope.js'

/** Admin overrides in force for one (tenant, mode, subject, value), as a JSON array. */
export function overrideKey (scope: Scope, subject: Subject, value: string): Buffer {
  return stateKey(TAG.override, scope.tenant, scope.mode, subject, value)
}

export function overrideByIdKey (scope: Scope, id: string): Buffer {
  return stateKey(TAG.overrideById, scope.tenant, scope.mode, id)
}

/** Keys of per-subject records to read for a request: one per subject it names. */
export function subjectKeys (request: ScoreRequest, key: (subject: Subject, value: string) => Buffer): Buffer[] {
  const keys: Buffer[] = []
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
