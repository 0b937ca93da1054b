import { describe, expect, it } from 'vitest'
import { encodeRecord } from '../../src/stores/velocity/record.js'
import { decodeRecord } from '../../src/stores/velocity/stored.js'
import { addAt, emptySlots } from '../../src/stores/velocity/slots.js'

describe('velocity record codec', () => {
  const counters = () => {
    const slots = emptySlots()
    addAt(slots.m, 'm', 29_000_000, 2, 30, 450)
    addAt(slots.d, 'd', 20_000, 1, 7.5, 56.25)
    return slots
  }

  it('reads back counters and every set of links, names and values in UTF-8', () => {
    const links = new Map([
      ['device', new Map([['d1', 1_700_000_000_000], ['dé-2', 1_700_000_060_000]])],
      ['custom.shop_région', new Map([['東京', 1_700_000_120_000]])]
    ])
    const raw = encodeRecord({ counters: counters(), links })
    expect(raw[0]).toBe(3)
    // Format byte, counters (three u16 counts, two slots of 28 bytes), u16 set count; per set a u8 name length,
    // the name, a u32 link count and per link 12 bytes and the value.
    const utf8 = (text: string) => Buffer.byteLength(text)
    const set = (of: string, values: string[]) => 1 + utf8(of) + 4 + values.reduce((n, v) => n + 12 + utf8(v), 0)
    expect(raw.byteLength).toBe(1 + 3 * 2 + 2 * 28 + 2 + set('device', ['d1', 'dé-2']) + set('custom.shop_région', ['東京']))
    expect(decodeRecord(raw)).toEqual({ counters: counters(), links })
  })

  it('writes a record without links in the counters-only format, which it reads as having none', () => {
    for (const links of [undefined, new Map()]) {
      const raw = encodeRecord({ counters: counters(), links })
      expect(raw[0]).toBe(2)
      expect(raw.byteLength).toBe(1 + 3 * 2 + 2 * 28)
      expect(decodeRecord(raw)).toEqual({ counters: counters(), links: undefined })
    }
  })

  it('refuses a record of an unknown format', () => {
    expect(() => decodeRecord(Buffer.from([9, 0, 0]))).toThrow(/unknown format 9/)
  })
})
