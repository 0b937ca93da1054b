import { SUBJECTS, type Override, type ScoreRequest, type Subject } from '../decision/types.js'
import { writeBatchSync } from '../storage/rocks.js'
import { stateKey, TAG } from './keys.js'
import type { StateDb } from './state-db.js'
import type { Scope } from './velocity.js'

/** Admin overrides, one list per (tenant, mode, subject, value). */
export function overrideKey (scope: Scope, subject: Subject, value: string): Buffer {
  return stateKey(TAG.override, scope.tenant, scope.mode, subject, value)
}

/** Keys to read for a request: one per subject it names. */
export function overrideKeys (scope: Scope, request: ScoreRequest): Buffer[] {
  const keys: Buffer[] = []
  for (const subject of SUBJECTS) {
    const value = request[subject]
    if (value !== undefined) keys.push(overrideKey(scope, subject, value))
  }
  return keys
}

export function parseOverrides (values: Array<Buffer | undefined>): Override[] {
  const out: Override[] = []
  for (const v of values) if (v !== undefined) out.push(...JSON.parse(v.toString()) as Override[])
  return out
}

export async function addOverride (state: StateDb, scope: Scope, override: Override): Promise<void> {
  const key = overrideKey(scope, override.subject, override.value)
  const existing = parseOverrides([await state.get(key)])
  writeBatchSync(state.db, [{ type: 'put', key, value: Buffer.from(JSON.stringify([...existing, override])) }], true)
}
