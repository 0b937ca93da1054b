import { describe, expect, it } from 'vitest'
import { decodeLinks, encodeLinks, seen, takeBack, type Links } from '../../src/stores/velocity/links.js'

describe('distinct-count records', () => {
  it('round-trip values of any script with their last-seen times, in their order', () => {
    const links = new Map([['user_1', 1_795_480_000_123], ['ユーザー', 0], ['', 1.5], ['a'.repeat(70_000), Number.MAX_SAFE_INTEGER]])
    const decoded = decodeLinks(encodeLinks(links))
    expect([...decoded]).toEqual([...links])
    expect(decodeLinks(encodeLinks(new Map())).size).toBe(0)
    expect(decodeLinks(undefined).size).toBe(0)
  })

  it('are smaller than the JSON they replace, and records stored as JSON still read', () => {
    const links = new Map(Array.from({ length: 30 }, (_, i) => [`dev_${i * 7919}`, 1_795_480_000_000 + i]))
    const json = Buffer.from(JSON.stringify(Object.fromEntries(links)))
    expect(encodeLinks(links).byteLength).toBeLessThan(json.byteLength)
    expect([...decodeLinks(json)]).toEqual([...links])
  })

  it('refuses a record of an unknown format', () => {
    expect(() => decodeLinks(Buffer.from([9, 0, 0]))).toThrow(/unknown format 9/)
  })

  it('keep the most recently seen values once over their bound', () => {
    const links = new Map([['a', 30], ['b', 10], ['c', 20]])
    seen(links, 'a', 5, 3) // an earlier sight keeps the later one
    expect([...links]).toEqual([['a', 30], ['b', 10], ['c', 20]])
    seen(links, 'd', 40, 3)
    expect([...links.keys()]).toEqual(['a', 'c', 'd'])
    seen(links, 'e', 1, 3) // older than every value kept: it goes at once
    expect([...links.keys()]).toEqual(['a', 'c', 'd'])
  })

  it('evict what a full scan for the oldest would, whatever the order of sights, updates and undos', () => {
    // The rule as first written: after each sight, while over the bound, drop the oldest (the first in the
    // map's order among equal times).
    const byScan = (links: Links, value: string, at: number, max: number) => {
      links.set(value, Math.max(links.get(value) ?? 0, at))
      if (links.size <= max) return
      let oldest: string | undefined
      let oldestAt = Infinity
      links.forEach((t, v) => { if (t < oldestAt) { oldest = v; oldestAt = t } })
      links.delete(oldest!)
    }
    let state = 12345
    const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    for (let round = 0; round < 20; round++) {
      const max = 40 + Math.floor(random() * 60)
      const fast: Links = new Map()
      const scanned: Links = new Map()
      let clock = 1_000
      for (let step = 0; step < 5_000; step++) {
        const value = `v${Math.floor(random() * max * 3)}`
        const r = random()
        // mostly later sights, some backdated (below the oldest kept), some undone; no two times equal (among
        // equal times which one goes is the map's order, which differs between instances anyway)
        const at = r < 0.7 ? (clock += 1 + Math.floor(random() * 5)) : clock - Math.floor(random() * 2_000) - (step + 1) / 10_000
        if (r > 0.97 && fast.has(value)) {
          // an undo puts back the time before (far older) or removes a value first seen by the undone event
          const before = r > 0.985 ? undefined : fast.get(value)! - 3_000 - (step + 1) / 100_000
          takeBack(fast, value, before)
          if (before === undefined) scanned.delete(value)
          else scanned.set(value, before)
          continue
        }
        seen(fast, value, at, max)
        byScan(scanned, value, at, max)
        expect(fast.size).toBe(scanned.size)
      }
      expect(new Map(fast)).toEqual(new Map(scanned))
    }
  })
})
