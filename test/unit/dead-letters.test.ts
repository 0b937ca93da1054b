import { describe, expect, it } from 'vitest'
import { appendDeadLetter } from '../../src/stream/eventlog/dead-letters.js'
import { LogUnavailable, RecordRejected, type EventLog } from '../../src/stream/eventlog/event-log.js'
import type { LogRecord } from '../../src/domain/records/log-record.js'
import { deadLetterRecord } from '../../src/domain/records/dead-letters.js'

/** A log whose dead-letter topic accepts records of at most `maxValue` bytes of value. */
function fakeLog (maxValue: number, unavailable = false) {
  const appended: LogRecord[] = []
  const log = {
    kind: 'embedded',
    append: async (_topic: string, records: LogRecord[]) => {
      if (unavailable) throw new LogUnavailable('dead-letters', new Error('down'))
      for (const r of records) if (r.value.byteLength > maxValue) throw new RecordRejected('MESSAGE_TOO_LARGE')
      appended.push(...records)
    }
  } as unknown as EventLog
  return { log, appended }
}

describe('dead-letter records', () => {
  it('keep the original key, value, source and reason', () => {
    const r = deadLetterRecord({ source_topic: 'decisions', source_offset: '7' }, 'k', Buffer.from([1, 2, 3]), new Error('cannot decode'))
    expect(r).toEqual({ key: 'k', value: Buffer.from([1, 2, 3]), headers: { source_topic: 'decisions', source_offset: '7', reason: 'cannot decode' } })
  })

  it('describe a value over 256 KiB instead of copying it', () => {
    const r = deadLetterRecord({}, 'k', new Uint8Array(300 * 1024), new Error('too large'))
    expect(r.value.byteLength).toBe(0)
    expect(r.headers).toMatchObject({ value_omitted_bytes: String(300 * 1024) })
  })

  it('are appended again without the value when the dead-letter topic refuses them, keeping reason and source', async () => {
    const { log, appended } = fakeLog(1000)
    await appendDeadLetter(log, 'dead-letters', deadLetterRecord({ source: 'outbox', seq: '9' }, 'o:9', new Uint8Array(5000), new Error('MESSAGE_TOO_LARGE')))
    expect(appended).toHaveLength(1)
    expect(appended[0]!.value.byteLength).toBe(0)
    expect(appended[0]!.headers).toMatchObject({ source: 'outbox', seq: '9', reason: 'MESSAGE_TOO_LARGE', value_omitted_bytes: '5000' })
  })

  it('fail as the log does when it is unavailable (retried by the caller, never dropped)', async () => {
    const { log } = fakeLog(1000, true)
    await expect(appendDeadLetter(log, 'dead-letters', deadLetterRecord({}, 'k', new Uint8Array(10), new Error('x')))).rejects.toBeInstanceOf(LogUnavailable)
  })
})
