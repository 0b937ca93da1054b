/**
 * A record as appended to a topic of the event log (stream/eventlog/event-log.ts). The records of each topic
 * are typed, keyed and encoded in this folder, one file per topic named after it (`decisions.ts` for the
 * `decisions` topic, `case-commands.ts` for `case-commands`, ...).
 */
export interface LogRecord {
  /** Record key (what compaction keeps the latest of). Also the partitioning key unless partitionKey is set. */
  key: string
  /** Records with the same partitioning key land in the same partition and keep their order. */
  partitionKey?: string
  /** The partition itself, over any key: a tombstone goes where the record it deletes went (stores/erasure.ts). */
  partition?: number
  value: Uint8Array
  headers?: Record<string, string>
  /** Event time in ms since the epoch; defaults to the append time. */
  timestamp?: number
}
