import type { Logger } from 'pino'
import type { FeedbackLabel } from '../cases/effects.js'
import type { EventLog } from '../eventlog/event-log.js'
import { decodeLabel } from '../records/feedback-label.js'
import { labelKey } from '../state/labels.js'
import type { StateDb } from '../state/state-db.js'
import { TopicMaterializer } from './topic-materializer.js'

/**
 * The scoring stage's view of the `feedback` topic: the latest case label of each trace id, on every
 * instance (backtests split matches by it; online learning reads it). A later label replaces an earlier one.
 */
export function feedbackMaterializer (state: StateDb, log: EventLog, topic: string, originId: string, logger: Logger): TopicMaterializer<FeedbackLabel, undefined> {
  return new TopicMaterializer<FeedbackLabel, undefined>(state, log, topic, `feedback-${originId}`, logger, { decode: decodeLabel, apply: async (label, _record, writes) => {
    const key = labelKey({ tenant: label.tenant_id, mode: label.livemode ? 'live' : 'test' }, label.trace_id)
    const raw = await writes.get(key)
    if (raw === undefined || (JSON.parse(raw.toString()) as { labeled_at_ms: number }).labeled_at_ms <= label.labeled_at_ms) {
      writes.put(key, Buffer.from(JSON.stringify(label)))
    }
    return []
  } })
}
