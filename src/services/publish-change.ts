import type { EventLog } from '../stream/eventlog/event-log.js'
import { appendConfirmed } from '../stream/confirmation.js'
import type { View } from '../stream/view.js'
import type { LogRecord } from '../domain/records/log-record.js'

/**
 * Appends a control-plane change and waits until this instance has applied it, so the response and every
 * read after it see the change. Both waits run on one CONFIRM_TIMEOUT_MS clock started here: past it the
 * request fails with NotConfirmed (503 not_confirmed).
 */
export async function publishChange<R> (log: EventLog, topic: string, view: View<unknown, R>, changeId: string, record: LogRecord): Promise<R> {
  const applied = view.expect(changeId)
  applied.catch(() => {})
  await appendConfirmed(log, topic, [record])
  return await applied
}
