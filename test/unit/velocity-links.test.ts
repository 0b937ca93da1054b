import { describe, expect, it } from 'vitest'
import { decodeLinks, encodeLinks, keepMostRecent } from '../../src/stores/velocity/links.js'

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
    keepMostRecent(links, 3)
    expect([...links.keys()]).toEqual(['a', 'b', 'c'])
    links.set('d', 40)
    keepMostRecent(links, 3)
    expect([...links.keys()]).toEqual(['a', 'c', 'd'])
  })
})
