import type { EventLog, LogRecord } from '../eventlog/event-log.js'
import { NotConfirmed, type TopicMaterializer } from '../pipeline/topic-materializer.js'
import { ApiError } from './errors.js'

/**
 * Appends a control-plane change and waits until this instance has applied it, so the response and every
 * read after it see the change. 503 not_confirmed when the log does not bring it back in time.
 */
export async function publishChange<R> (log: EventLog, topic: string, view: TopicMaterializer<unknown, R>, changeId: string, record: LogRecord): Promise<R> {
  const applied = view.expect(changeId)
  applied.catch(() => {})
  await log.append(topic, [record])
  try {
    return await applied
  } catch (err) {
    if (err instanceof NotConfirmed) throw new ApiError(503, 'api_error', 'not_confirmed', 'The change was queued but not confirmed in time; read it back to see whether it was applied.')
    throw err
  }
}
