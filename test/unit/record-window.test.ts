import { describe, expect, it } from 'vitest'
import { RecordWindow } from '../../src/stream/eventlog/embedded-groups.js'
import type { ConsumedRecord } from '../../src/stream/eventlog/event-log.js'

const records = (from: number, n: number, bytes = 10): ConsumedRecord[] =>
  Array.from({ length: n }, (_, i) => ({ topic: 't', partition: 0, offset: from + i, key: `k${from + i}`, value: Buffer.alloc(bytes), headers: {}, timestamp: 0 }))
const offsets = (rs: ConsumedRecord[] | undefined) => rs?.map(r => r.offset)

describe('the records an embedded log keeps per partition for its consumer groups', () => {
  it('serves the offsets it holds, at most the batch asked for, and nothing outside them', () => {
    const w = new RecordWindow()
    w.add(records(10, 5))
    expect(offsets(w.slice(10, 500))).toEqual([10, 11, 12, 13, 14])
    expect(offsets(w.slice(12, 2))).toEqual([12, 13])
    expect(w.slice(9, 500)).toBeUndefined()
    expect(w.slice(15, 500)).toBeUndefined()
  })

  it('follows the front: records right after it extend it, records past it replace it, records before it are not kept', () => {
    const w = new RecordWindow()
    w.add(records(10, 5))
    w.add(records(15, 2))
    expect(offsets(w.slice(10, 500))).toEqual([10, 11, 12, 13, 14, 15, 16])
    w.add(records(3, 4)) // a group catching up read these
    expect(w.slice(3, 500)).toBeUndefined()
    expect(offsets(w.slice(16, 500))).toEqual([16])
    w.add(records(40, 2))
    expect(w.slice(16, 500)).toBeUndefined()
    expect(offsets(w.slice(40, 500))).toEqual([40, 41])
  })

  it('keeps at most 4,096 records and 1 MiB of values, dropping the oldest', () => {
    const byCount = new RecordWindow()
    for (let i = 0; i < 10; i++) byCount.add(records(i * 1000, 1000))
    expect(byCount.slice(10_000 - 4096 - 1, 1)).toBeUndefined()
    expect(offsets(byCount.slice(10_000 - 4096, 1))).toEqual([10_000 - 4096])

    const byBytes = new RecordWindow()
    byBytes.add(records(0, 300, 8192)) // 2.4 MiB
    expect(byBytes.slice(0, 1)).toBeUndefined()
    expect(offsets(byBytes.slice(299, 1))).toEqual([299])
    expect(offsets(byBytes.slice(300 - 128, 1))).toEqual([172]) // 128 values of 8 KiB: 1 MiB
    expect(byBytes.slice(300 - 129, 1)).toBeUndefined()
  })
})
