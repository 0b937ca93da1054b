import { describe, expect, it } from 'vitest'
import { rolloutBucket } from '../../src/domain/rules/rollout.js'

const subjects = Array.from({ length: 20000 }, (_, i) => `user_${i}`)
const included = (pack: string, percentage: number, tenant = 'ten_a') => new Set(subjects.filter(s => rolloutBucket(tenant, pack, s) < percentage))

describe('rollout buckets', () => {
  it('are deterministic and within [0, 100)', () => {
    for (const s of subjects.slice(0, 1000)) {
      const b = rolloutBucket('ten_a', 'pack_1', s)
      expect(b).toBeGreaterThanOrEqual(0)
      expect(b).toBeLessThan(100)
      expect(rolloutBucket('ten_a', 'pack_1', s)).toBe(b)
    }
  })

  it('cover the requested share of subjects (20,000 subjects, within 4 standard deviations)', () => {
    for (const p of [1, 10, 25, 50, 90]) {
      const share = included('pack_1', p).size / subjects.length
      const sd = Math.sqrt((p / 100) * (1 - p / 100) / subjects.length)
      expect(Math.abs(share - p / 100)).toBeLessThan(4 * sd)
    }
    expect(included('pack_1', 0).size).toBe(0)
    expect(included('pack_1', 100).size).toBe(subjects.length)
  })

  it('only add subjects when the percentage is raised', () => {
    const at10 = included('pack_1', 10)
    const at25 = included('pack_1', 25)
    for (const s of at10) expect(at25.has(s)).toBe(true)
    expect(at25.size).toBeGreaterThan(at10.size)
  })

  it('are independent between packs and between tenants', () => {
    const a = included('pack_1', 50)
    const b = included('pack_2', 50)
    const c = included('pack_1', 50, 'ten_b')
    const overlap = (x: Set<string>, y: Set<string>) => [...x].filter(s => y.has(s)).length / subjects.length
    // Independent halves overlap on about a quarter of subjects, not on all of them.
    expect(Math.abs(overlap(a, b) - 0.25)).toBeLessThan(0.02)
    expect(Math.abs(overlap(a, c) - 0.25)).toBeLessThan(0.02)
  })
})
