import type { Logger } from 'pino'
import type { FeedbackLabel } from '../../domain/cases/effects.js'
import type { EventLog } from '../eventlog/event-log.js'
import { decodeLabel } from '../records/feedback-label.js'
import { scopeOf } from '../../domain/scope.js'
import { countFraud, shouldCount, type StoredLabel } from '../../stores/label-counters.js'
import { labelKey } from '../../stores/labels.js'
import type { StateDb } from '../../stores/state-db.js'
import { transactionKey } from '../../stores/transactions.js'
import type { VelocityStore } from '../../stores/velocity.js'
import type { TransactionRecord } from '../../domain/transaction.js'
import { TopicMaterializer } from '../topic-materializer.js'

/**
 * The scoring stage's view of the `feedback` topic: the latest case label of each trace id, on every
 * instance (backtests split matches by it). A later label replaces an earlier one. A fraudulent label also
 * counts its transaction in the label.<dimension> velocity counters (merchant risk), once; when the
 * transaction has not reached this instance yet, the decisions materializer counts it on arrival.
 */
export function feedbackMaterializer (state: StateDb, velocity: VelocityStore, log: EventLog, topic: string, originId: string, logger: Logger): TopicMaterializer<FeedbackLabel, undefined> {
  return new TopicMaterializer<FeedbackLabel, undefined>(state, log, topic, `feedback-${originId}`, logger, { decode: decodeLabel, apply: async (label, _record, writes) => {
    const scope = scopeOf(label)
    const key = labelKey(scope, label.trace_id)
    const raw = await writes.get(key)
    const previous = raw === undefined ? undefined : JSON.parse(raw.toString()) as StoredLabel
    if (previous !== undefined && previous.labeled_at_ms > label.labeled_at_ms) return []
    let counted = previous?.counted === true
    if (shouldCount(label, previous?.counted)) {
      const tx = await writes.get(transactionKey(scope, label.trace_id))
      if (tx !== undefined) {
        const count = await countFraud(velocity, JSON.parse(tx.toString()) as TransactionRecord)
        writes.append(count.ops, count.release)
        counted = true
      }
    }
    const stored: StoredLabel = { ...label, counted }
    writes.put(key, Buffer.from(JSON.stringify(stored)))
    return []
  } })
}
