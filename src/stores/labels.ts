import { stateKey, TAG } from './keys.js'
import type { StateDb } from './state-db.js'
import { type Scope, scopeOf } from '../domain/scope.js'
import type { StoreWrites } from './writes.js'
import { countFraud, shouldCount, type StoredLabel } from './label-counters.js'
import { parseTransaction, transactionKey } from './transactions.js'
import type { VelocityStore } from './velocity/index.js'
import type { FeedbackLabel } from '../domain/records/feedback.js'

export const labelKey = (scope: Scope, traceId: string) => stateKey(TAG.label, scope.tenant, scope.mode, traceId)

/** The latest label of each trace id (undefined when it has none). */
export async function labelsOf (state: StateDb, scope: Scope, traceIds: string[]): Promise<Array<FeedbackLabel | undefined>> {
  const raw = await state.getMany(traceIds.map(id => labelKey(scope, id)))
  return raw.map(r => r === undefined ? undefined : JSON.parse(r.toString()) as FeedbackLabel)
}

/**
 * Applies a case label of the `feedback` topic: the latest label of each trace id (a later label replaces an
 * earlier one). A fraudulent label also counts its transaction in the label.<dimension> velocity counters
 * (merchant risk), once; when the transaction is not here yet, the decisions materializer counts it on arrival.
 */
export async function applyLabel (label: FeedbackLabel, writes: StoreWrites, velocity: VelocityStore): Promise<void> {
  const scope = scopeOf(label)
  const key = labelKey(scope, label.trace_id)
  const raw = await writes.get(key)
  const previous = raw === undefined ? undefined : JSON.parse(raw.toString()) as StoredLabel
  if (previous !== undefined && previous.labeled_at_ms > label.labeled_at_ms) return
  let counted = previous?.counted === true
  if (shouldCount(label, previous?.counted)) {
    const tx = await writes.get(transactionKey(scope, label.trace_id))
    if (tx !== undefined) {
      const count = await countFraud(velocity, parseTransaction(tx))
      writes.append(count.ops, count.release)
      counted = true
    }
  }
  const stored: StoredLabel = { ...label, counted }
  writes.put(key, Buffer.from(JSON.stringify(stored)))
}
