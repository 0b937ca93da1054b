import { describe, expect, it } from 'vitest'
import { decide } from '../src/decision/decide.js'
import { defaultPolicy } from '../src/decision/default-policy.js'
import { riskLevel, DEFAULT_THRESHOLDS } from '../src/decision/risk-level.js'
import { evaluateRules } from '../src/decision/stage1-rules.js'
import { scoreFeatures } from '../src/decision/stage2-score.js'
import { applyOverrides } from '../src/decision/stage3-overrides.js'
import type { DecisionContext, Override, TenantPolicy } from '../src/decision/types.js'

const quiet = { amount: 40, user_present: 1, device_present: 1, device_known: 1, user_count_1h: 0, ip_count_1h: 0, device_count_1h: 0, user_count_24h: 3, user_amount_24h: 120 }
const policyWith = (patch: Partial<TenantPolicy['ruleset']> = {}): TenantPolicy => {
  const p = defaultPolicy()
  return { ...p, ruleset: { ...p.ruleset, ...patch } }
}
const ctx = (over: Partial<DecisionContext> = {}): DecisionContext => ({ features: quiet, policy: defaultPolicy(), overrides: [], now_ms: 1_800_000_000_000, ...over })
const override = (o: Partial<Override>): Override => ({ id: 'ovr_1', subject: 'user_id', value: 'u1', action: 'reject', reason: 'test', expires_at_ms: null, ...o })

describe('Stage 1: tenant rules', () => {
  it('rejects a request naming any deny-listed subject and reports the rule id', () => {
    const policy = policyWith({ deny: { email: ['bad@example.com'], ip: ['10.0.0.1'] } })
    expect(evaluateRules({ event: 'payment', email: 'bad@example.com' }, policy.ruleset)).toEqual({ matched: ['deny_list'], action: 'reject' })
    expect(evaluateRules({ event: 'payment', ip: '10.0.0.1' }, policy.ruleset).action).toBe('reject')
    expect(evaluateRules({ event: 'payment', email: 'ok@example.com' }, policy.ruleset)).toEqual({ matched: [], action: null })
  })

  it('flags amounts strictly above the threshold only', () => {
    const { ruleset } = defaultPolicy()
    expect(evaluateRules({ event: 'payment', amount: 10000 }, ruleset).matched).toEqual([])
    expect(evaluateRules({ event: 'payment', amount: 10000.01 }, ruleset)).toEqual({ matched: ['amount_over_10000'], action: 'flag' })
    expect(evaluateRules({ event: 'login' }, ruleset).matched).toEqual([])
  })

  it('keeps the strictest action when several rules match', () => {
    const policy = policyWith({ deny: { user_id: ['u9'] } })
    expect(evaluateRules({ event: 'payment', user_id: 'u9', amount: 50000 }, policy.ruleset)).toEqual({ matched: ['deny_list', 'amount_over_10000'], action: 'reject' })
  })
})

describe('Stage 2: score', () => {
  it('is low for a known device with no velocity and rises with velocity and a new device', () => {
    const calm = scoreFeatures(quiet)
    const busy = scoreFeatures({ ...quiet, user_count_1h: 30, ip_count_1h: 60, device_count_1h: 30 })
    const fresh = scoreFeatures({ ...quiet, device_known: 0 })
    expect(calm.score).toBeLessThan(0.1)
    expect(busy.score).toBeGreaterThan(0.75)
    expect(fresh.score).toBeGreaterThan(calm.score)
    expect(busy.signals[0]).toBe('velocity')
    expect(calm.signals).toContain('known_device')
    expect(fresh.signals).toContain('new_device')
  })

  it('stays within 0..1 and is deterministic', () => {
    for (const n of [0, 1, 10, 1e3, 1e6]) {
      const f = { ...quiet, user_count_1h: n, amount: n * 100 }
      const a = scoreFeatures(f)
      expect(a.score).toBeGreaterThanOrEqual(0)
      expect(a.score).toBeLessThanOrEqual(1)
      expect(scoreFeatures(f)).toEqual(a)
    }
  })

  it('maps score to risk level with the default thresholds low < 0.65 <= medium < 0.75 <= high', () => {
    expect(riskLevel(0.6499, DEFAULT_THRESHOLDS)).toBe('low')
    expect(riskLevel(0.65, DEFAULT_THRESHOLDS)).toBe('medium')
    expect(riskLevel(0.7499, DEFAULT_THRESHOLDS)).toBe('medium')
    expect(riskLevel(0.75, DEFAULT_THRESHOLDS)).toBe('high')
  })
})

describe('Stage 3: admin overrides', () => {
  it('promotes or demotes the action for the matching subject and names the gate', () => {
    expect(applyOverrides({ event: 'x', user_id: 'u1' }, 'approve', [override({})], 0)).toEqual({ action: 'reject', gate: 'admin_override:ovr_1' })
    expect(applyOverrides({ event: 'x', user_id: 'u1' }, 'reject', [override({ action: 'approve' })], 0)).toEqual({ action: 'approve', gate: 'admin_override:ovr_1' })
    expect(applyOverrides({ event: 'x', user_id: 'u2' }, 'approve', [override({})], 0)).toEqual({ action: 'approve', gate: null })
  })

  it('ignores expired overrides and lets the newest of several win', () => {
    expect(applyOverrides({ event: 'x', user_id: 'u1' }, 'approve', [override({ expires_at_ms: 1000 })], 1000).gate).toBeNull()
    expect(applyOverrides({ event: 'x', user_id: 'u1' }, 'approve', [override({ expires_at_ms: 1001 })], 1000).action).toBe('reject')
    const both = [override({ id: 'ovr_2', action: 'flag' }), override({ id: 'ovr_1', action: 'reject' })]
    expect(applyOverrides({ event: 'x', user_id: 'u1' }, 'approve', both, 0)).toEqual({ action: 'flag', gate: 'admin_override:ovr_2' })
  })
})

describe('decide: the three stages together', () => {
  it('approves a quiet request and records versions and the base action', () => {
    const e = decide({ event: 'payment', user_id: 'u1', amount: 40 }, ctx())
    expect(e.decision).toMatchObject({ action: 'approve', risk_level: 'low', rules: [] })
    expect(e).toMatchObject({ base_action: 'approve', override_gate: null, ruleset_version: 'rs_default_1' })
    expect(e.model_version).toMatch(/^prior-/)
  })

  it('lets a rule raise the action above what the score alone would do', () => {
    const e = decide({ event: 'payment', amount: 20000 }, ctx())
    expect(e.decision.risk_level).toBe('low')
    expect(e.decision.action).toBe('flag')
    expect(e.decision.rules).toEqual(['amount_over_10000'])
  })

  it('rejects on a high score with no rule', () => {
    const e = decide({ event: 'payment', user_id: 'u1' }, ctx({ features: { ...quiet, user_count_1h: 50, ip_count_1h: 100, device_count_1h: 50, device_known: 0 } }))
    expect(e.decision.risk_level).toBe('high')
    expect(e.decision.action).toBe('reject')
  })

  it('applies the override after rules and score, keeping the base action on record', () => {
    const policy = policyWith({ deny: { user_id: ['u1'] } })
    const e = decide({ event: 'payment', user_id: 'u1' }, ctx({ policy, overrides: [override({ action: 'approve' })] }))
    expect(e.base_action).toBe('reject')
    expect(e.decision.action).toBe('approve')
    expect(e.decision.rules).toEqual(['deny_list'])
    expect(e.override_gate).toBe('admin_override:ovr_1')
  })

  it('gives the same evaluation for the same request and context', () => {
    const request = { event: 'payment', user_id: 'u1', amount: 99 }
    expect(decide(request, ctx())).toEqual(decide(request, ctx()))
  })
})
