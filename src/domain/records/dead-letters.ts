import type { LogRecord } from './log-record.js'

/** A dead-letter record carries the original value up to this size; a larger one is described, not copied. */
const MAX_COPIED_BYTES = 256 * 1024

/** A dead-letter record: the original key and value (when small enough) with where it came from and why. */
export function deadLetterRecord (source: Record<string, string>, key: string, value: Uint8Array, err: unknown): LogRecord {
  const reason = (err instanceof Error ? err.message : String(err)).slice(0, 1000)
  const copied = value.byteLength <= MAX_COPIED_BYTES
  return {
    key,
    value: copied ? value : new Uint8Array(0),
    headers: { ...source, reason, ...(copied ? {} : { value_omitted_bytes: String(value.byteLength) }) }
  }
}
