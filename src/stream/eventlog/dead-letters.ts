import { NotConfirmed } from '../confirmation.js'
import { isStorageFault } from '../../stores/storage-fault.js'
import { LogUnavailable, RecordRejected, type EventLog } from './event-log.js'
import type { LogRecord } from '../../domain/records/log-record.js'

/** Tries of one record alone before it is dead-lettered (the failure is its own, not the log's). */
export const DEAD_LETTER_AFTER = 3
/**
 * Failures that say nothing about the record: the log or a view is unavailable, or the local store cannot
 * write (a full disk, an I/O error). They are retried, never dead-lettered.
 */
export const isTransient = (err: unknown): boolean => err instanceof LogUnavailable || err instanceof NotConfirmed || isStorageFault(err)

/**
 * Appends a dead-letter record; when the dead-letter topic refuses even that (its own size limit), appends it
 * again without the value, so the reason and the source are kept whatever the record's size.
 */
export async function appendDeadLetter (log: EventLog, topic: string, record: LogRecord): Promise<void> {
  try {
    await log.append(topic, [record])
  } catch (err) {
    if (!(err instanceof RecordRejected) || record.value.byteLength === 0) throw err
    await log.append(topic, [{ ...record, value: new Uint8Array(0), headers: { ...record.headers, value_omitted_bytes: String(record.value.byteLength) } }])
  }
}
