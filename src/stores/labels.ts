import type { FeedbackLabel } from '../domain/cases/effects.js'
import { stateKey, TAG } from './keys.js'
import type { StateDb } from './state-db.js'
import type { Scope } from '../domain/scope.js'

export const labelKey = (scope: Scope, traceId: string) => stateKey(TAG.label, scope.tenant, scope.mode, traceId)

/** The latest label of each trace id (undefined when it has none). */
export async function labelsOf (state: StateDb, scope: Scope, traceIds: string[]): Promise<Array<FeedbackLabel | undefined>> {
  const raw = await state.getMany(traceIds.map(id => labelKey(scope, id)))
  return raw.map(r => r === undefined ? undefined : JSON.parse(r.toString()) as FeedbackLabel)
}
