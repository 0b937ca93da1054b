import type { VelocityStore } from './velocity/index.js'
import { scopeOf } from '../domain/scope.js'
import type { WriteOp } from './rocks.js'
import type { DecisionSubject } from '../domain/records/decisions.js'
import type { FeedbackLabel } from '../domain/records/feedback.js'

/** A stored label, with whether its transaction was counted in the label.<dimension> velocity counters. */
export type StoredLabel = FeedbackLabel & { counted?: boolean }

/**
 * Counts a fraudulent transaction in label.<dimension> (user, device, ip, email, card, merchant) at the
 * transaction's event time, once per trace id: merchant risk and other "labelled history" features read these
 * counters. The increments are taken when `ops()` runs (right before the batch is committed).
 */
export interface FraudCount { ops(): WriteOp[], release(): void }

export async function countFraud (velocity: VelocityStore, tx: DecisionSubject): Promise<FraudCount> {
  const view = await velocity.labelView(scopeOf(tx), tx.request, tx.created_ms)
  return { ops: () => view.incrementOps(), release: () => view.release() }
}

/** Whether this label makes its transaction count as fraud now: fraudulent, and the transaction not counted yet. */
export const shouldCount = (label: FeedbackLabel, alreadyCounted: boolean | undefined) => label.label === 1 && alreadyCounted !== true
