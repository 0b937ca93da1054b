import { describe, expect, it } from 'vitest'
import { idLowerBound, newId } from '../../src/domain/ids.js'

describe('ids', () => {
  it('are distinct across refills of the random pool, sort by creation time and start at their lower bound', () => {
    const ms = Date.parse('2026-11-23T12:00:00Z')
    const ids = Array.from({ length: 1000 }, (_, i) => newId('trc', ms + Math.floor(i / 10)))
    expect(new Set(ids).size).toBe(1000)
    expect(new Set(ids.map(id => id.slice(-16))).size).toBe(1000)
    expect(ids.every((id, i) => i === 0 || id.slice(0, 14) >= ids[i - 1]!.slice(0, 14))).toBe(true)
    expect(ids.every(id => /^trc_[0-9a-z]{26}$/.test(id) && id >= idLowerBound('trc', ms))).toBe(true)
  })
})
