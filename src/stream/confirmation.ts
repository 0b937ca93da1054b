import type { EventLog } from './eventlog/event-log.js'
import type { LogRecord } from '../domain/records/log-record.js'
import { StorageUnavailable } from '../stores/storage-fault.js'

/** A change was appended but this instance did not see it applied in time (it may still be applied). */
export class NotConfirmed extends Error {}

/**
 * How long a request that writes control-plane state waits for the log: the append, then seeing the change
 * applied here. Past it (a broker outage, say) the request answers 503 not_confirmed instead of hanging.
 */
export const CONFIRM_TIMEOUT_MS = 10_000

/**
 * Appends within `timeoutMs`: a log that fails or does not acknowledge in time (the change may still land
 * later) is NotConfirmed. An embedded log whose store cannot write (a full disk) is StorageUnavailable: the
 * change was not recorded (503 storage_unavailable).
 */
export async function appendConfirmed (log: EventLog, topic: string, records: LogRecord[], timeoutMs = CONFIRM_TIMEOUT_MS): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new NotConfirmed(`${topic}: the log did not acknowledge within ${timeoutMs} ms`)), timeoutMs)
  })
  const appended = log.append(topic, records)
  appended.catch(() => {})
  try {
    await Promise.race([appended, timeout])
  } catch (err) {
    if (err instanceof NotConfirmed) throw err
    if (err instanceof StorageUnavailable) throw err
    throw new NotConfirmed(`${topic}: the log refused the change: ${(err as Error).message}`)
  } finally {
    clearTimeout(timer)
  }
}
