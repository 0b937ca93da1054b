import { describe, expect, it } from 'vitest'
import type { Ruleset } from '../../src/domain/decision/types.js'
import { rolloutsRun, stopReason } from '../../src/domain/rules/rollout-guard.js'
import { versionLabel, versionNumber } from '../../src/domain/rules/ruleset-versions.js'

const figures = (decisions: number, hits: number, maturedHits = 0, maturedFrauds = 0) => ({ decisions, hits, matured_hits: maturedHits, matured_frauds: maturedFrauds })

describe('stop conditions', () => {
  it('stops on a hit rate above the maximum once the minimum of decisions ran', () => {
    const c = { max_hit_rate: 0.1, min_decisions: 100 }
    expect(stopReason(c, figures(99, 50))).toBeUndefined()
    expect(stopReason(c, figures(100, 10))).toBeUndefined() // at the maximum: not above
    expect(stopReason(c, figures(100, 11))).toEqual({ reason: 'hit_rate', ...figures(100, 11), hit_rate: 0.11, precision: null })
    expect(stopReason({ max_hit_rate: 0.1 }, figures(999, 500))).toBeUndefined() // 1,000 decisions by default
    expect(stopReason({ max_hit_rate: 0.1 }, figures(1000, 500))?.reason).toBe('hit_rate')
  })

  it('stops on a precision below the minimum once the minimum of hits matured', () => {
    const c = { min_precision: 0.5, min_matured_hits: 10 }
    expect(stopReason(c, figures(500, 20, 9, 0))).toBeUndefined()
    expect(stopReason(c, figures(500, 20, 10, 5))).toBeUndefined()
    expect(stopReason(c, figures(500, 20, 10, 4))).toEqual({ reason: 'precision', ...figures(500, 20, 10, 4), hit_rate: 0.04, precision: 0.4 })
    expect(stopReason({ min_precision: 0.5 }, figures(500, 40, 29, 0))).toBeUndefined() // 30 matured hits by default
  })

  it('judges the hit rate first, and nothing without a condition', () => {
    expect(stopReason({ max_hit_rate: 0.01, min_decisions: 10, min_precision: 0.9, min_matured_hits: 1 }, figures(10, 5, 5, 0))?.reason).toBe('hit_rate')
    expect(stopReason({}, figures(1e6, 1e6, 1e6, 0))).toBeUndefined()
  })
})

describe('the rollouts a decision ran', () => {
  const ruleset: Ruleset = {
    version: 'rs_3',
    rules: [],
    lists: {},
    rollouts: {
      guarded: { pack: 'guarded', rule_ids: ['a', 'b'], percentage: 40, id: 'rol_1', status: 'running', stop_conditions: { max_hit_rate: 0.1 } },
      unguarded: { pack: 'unguarded', rule_ids: ['c'], percentage: 100, id: 'rol_2', status: 'running' },
      stopped: { pack: 'stopped', rule_ids: ['d'], percentage: 100, id: 'rol_3', status: 'stopped', stop_conditions: { max_hit_rate: 0.1 } },
      legacy: { pack: 'legacy', rule_ids: ['e'], percentage: 100, stop_conditions: { max_hit_rate: 0.1 } }
    }
  }
  it('are the guarded running ones whose bucket the decision fell in, each with whether one of its rules matched', () => {
    const buckets = { guarded: 39.99, unguarded: 1, stopped: 1, legacy: 1 }
    expect(rolloutsRun(ruleset, buckets, ['b', 'c', 'd', 'e'])).toEqual([{ id: 'rol_1', pack: 'guarded', hit: true }])
    expect(rolloutsRun(ruleset, buckets, ['c'])).toEqual([{ id: 'rol_1', pack: 'guarded', hit: false }])
    expect(rolloutsRun(ruleset, { ...buckets, guarded: 40 }, ['a'])).toEqual([])
    expect(rolloutsRun(ruleset, {}, ['a'])).toEqual([])
  })
})

describe('version labels', () => {
  it('map back to their numbers', () => {
    for (const n of [0, 1, 42, 1234567890]) expect(versionNumber(versionLabel(n))).toBe(n)
    for (const label of ['rs_0', 'rs_01', 'rs_', 'rs_1x', 'x', '']) expect(versionNumber(label)).toBeUndefined()
  })
})
