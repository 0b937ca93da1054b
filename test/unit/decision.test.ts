import { describe, expect, it } from 'vitest'
import { decide, type DecisionContext } from '../../src/domain/decision/decide.js'
import { defaultPolicy } from '../../src/domain/decision/default-policy.js'
import { riskLevel, DEFAULT_THRESHOLDS } from '../../src/domain/decision/risk-level.js'
import { evaluateRules } from '../../src/domain/decision/stage1-rules.js'
import { activation } from '../../src/domain/rules/language.js'
import { compileRuleset } from '../../src/domain/rules/ruleset.js'
import { PRIOR, scoreFeatures } from '../../src/domain/model/model.js'
import { applyOverrides } from '../../src/domain/decision/stage3-overrides.js'
import type { CaseGate, Override, Rule, ScoreRequest, TenantPolicy } from '../../src/domain/decision/types.js'

const quiet = { amount: 40, user_present: 1, device_present: 1, device_known: 1, user_count_1h: 0, ip_count_1h: 0, device_count_1h: 0, user_count_24h: 3, user_sum_24h: 120, user_count_30d: 12 }
const rule = (r: Partial<Rule> & Pick<Rule, 'id' | 'expression' | 'action'>): Rule => ({ name: r.id, mode: 'enforce', priority: 100, description: '', status: 'active', ...r })
/** The default policy with extra rules and list items. */
const policyWith = (extra: Rule[] = [], items: Record<string, string[]> = {}): TenantPolicy => {
  const p = defaultPolicy()
  for (const [alias, values] of Object.entries(items)) p.ruleset.lists[alias]!.items = values
  p.ruleset.rules.push(...extra)
  p.ruleset.version = `rs_test_${Math.random()}`
  return p
}
const ctx = (over: Partial<DecisionContext> & { policy?: TenantPolicy } = {}): DecisionContext => {
  const policy = over.policy ?? defaultPolicy()
  return { features: quiet, policy, rules: compileRuleset(policy.ruleset), signals: {}, model: PRIOR, overrides: [], caseGates: [], now_ms: 1_800_000_000_000, tenant: 'ten_t', fallback_subject: 'trc_t', ...over }
}
const stage1 = (request: ScoreRequest, policy: TenantPolicy, signals: Record<string, number> = {}) => {
  const rules = compileRuleset(policy.ruleset)
  return evaluateRules(rules.enforce, rules.shadow, activation({ request, features: quiet, signals, lists: rules.lists }))
}
const override = (o: Partial<Override>): Override => ({ id: 'ovr_1', subject: 'user_id', value: 'u1', action: 'reject', reason: 'test', created_ms: 0, expires_at_ms: null, ...o })

describe('Stage 1: tenant rules', () => {
  it('rejects a request naming any deny-listed subject, including IPs by CIDR and countries', () => {
    const policy = policyWith([], { deny_emails: ['bad@example.com'], deny_ips: ['10.0.0.0/8'], deny_countries: ['kp'] })
    expect(stage1({ event: 'payment', email: 'BAD@example.com' }, policy).enforce).toEqual({ matched: ['deny_list'], action: 'reject' })
    expect(stage1({ event: 'payment', ip: '10.20.30.40' }, policy).enforce.action).toBe('reject')
    expect(stage1({ event: 'payment', geo: { country: 'KP' } }, policy).enforce.action).toBe('reject')
    expect(stage1({ event: 'payment', ip: '11.0.0.1', email: 'ok@example.com' }, policy).enforce).toEqual({ matched: [], action: null })
  })

  it('flags amounts strictly above the threshold only, with no error when amount is absent', () => {
    const policy = defaultPolicy()
    expect(stage1({ event: 'payment', amount: 10000 }, policy).enforce.matched).toEqual([])
    expect(stage1({ event: 'payment', amount: 10000.01 }, policy).enforce).toEqual({ matched: ['amount_over_10000'], action: 'flag' })
    expect(stage1({ event: 'login' }, policy)).toEqual({ enforce: { matched: [], action: null }, shadow: undefined, errors: [] })
  })

  it('lets an allow rule short-circuit reject and flag rules', () => {
    const policy = policyWith([], { allow_users: ['u-trusted'], deny_emails: ['bad@example.com'] })
    expect(stage1({ event: 'payment', user_id: 'u-trusted', email: 'bad@example.com', amount: 50000 }, policy).enforce).toEqual({ matched: ['allow_list'], action: 'approve' })
  })

  it('reports every matching reject and flag rule and keeps the strictest action', () => {
    const policy = policyWith([rule({ id: 'r_sim', expression: 'signals.sim_swap_confidence > 0.8', action: 'flag', priority: 1 })], { deny_users: ['u9'] })
    expect(stage1({ event: 'payment', user_id: 'u9', amount: 50000 }, policy, { sim_swap_confidence: 0.9 }).enforce).toEqual({ matched: ['deny_list', 'r_sim', 'amount_over_10000'], action: 'reject' })
  })

  it('records a rule whose expression fails as an error, not a match', () => {
    const policy = policyWith([rule({ id: 'r_dev', expression: 'request.device_id == "d1"', action: 'reject' })])
    const outcome = stage1({ event: 'payment' }, policy)
    expect(outcome.enforce.action).toBeNull()
    expect(outcome.errors).toEqual([{ id: 'r_dev', error: expect.stringMatching(/device_id/) }])
  })

  it('skips disabled rules', () => {
    const policy = policyWith([rule({ id: 'r_off', expression: 'true', action: 'reject', status: 'disabled' })])
    expect(stage1({ event: 'payment' }, policy).enforce.matched).toEqual([])
  })
})

describe('Stage 2: score', () => {
  it('is low for a known device with no velocity and rises with velocity and a new device', () => {
    const calm = scoreFeatures(quiet, PRIOR)
    const busy = scoreFeatures({ ...quiet, user_count_1h: 30, ip_count_1h: 60, device_count_1h: 30 }, PRIOR)
    const fresh = scoreFeatures({ ...quiet, device_known: 0 }, PRIOR)
    expect(riskLevel(calm.score, DEFAULT_THRESHOLDS)).toBe('low')
    // 30 events of one customer and device in an hour is no session: flagged at least
    expect(riskLevel(busy.score, DEFAULT_THRESHOLDS)).not.toBe('low')
    expect(fresh.score).toBeGreaterThan(calm.score)
    expect(riskLevel(fresh.score, DEFAULT_THRESHOLDS)).toBe('low')
    expect(busy.signals[0]).toBe('velocity')
    // a known device lowers the score: never a reason for it
    expect(calm.signals).not.toContain('known_device')
    expect(fresh.signals).toContain('new_device')
  })

  it('stays within 0..1 and is deterministic', () => {
    for (const n of [0, 1, 10, 1e3, 1e6]) {
      const f = { ...quiet, user_count_1h: n, amount: n * 100 }
      const a = scoreFeatures(f, PRIOR)
      expect(a.score).toBeGreaterThanOrEqual(0)
      expect(a.score).toBeLessThanOrEqual(1)
      expect(scoreFeatures(f, PRIOR)).toEqual(a)
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
    expect(applyOverrides({ event: 'x', user_id: 'u1' }, 'approve', [override({})], [], 0)).toEqual({ action: 'reject', gate: 'admin_override:ovr_1' })
    expect(applyOverrides({ event: 'x', user_id: 'u1' }, 'reject', [override({ action: 'approve' })], [], 0)).toEqual({ action: 'approve', gate: 'admin_override:ovr_1' })
    expect(applyOverrides({ event: 'x', user_id: 'u2' }, 'approve', [override({})], [], 0)).toEqual({ action: 'approve', gate: null })
  })

  it('ignores expired overrides and lets the newest of several win', () => {
    expect(applyOverrides({ event: 'x', user_id: 'u1' }, 'approve', [override({ expires_at_ms: 1000 })], [], 1000).gate).toBeNull()
    expect(applyOverrides({ event: 'x', user_id: 'u1' }, 'approve', [override({ expires_at_ms: 1001 })], [], 1000).action).toBe('reject')
    const both = [override({ id: 'ovr_2', action: 'flag' }), override({ id: 'ovr_1', action: 'reject' })]
    expect(applyOverrides({ event: 'x', user_id: 'u1' }, 'approve', both, [], 0)).toEqual({ action: 'flag', gate: 'admin_override:ovr_2' })
  })
})

describe('Stage 3: case review outcomes', () => {
  const gate = (g: Partial<CaseGate>): CaseGate => ({ case_id: 'case_1', outcome: 'safe', at_ms: 1000, until_ms: 5000, ...g })
  const req = { event: 'payment', user_id: 'u1' }

  it('demotes flag to approve while a safe outcome lasts, and only flags', () => {
    expect(applyOverrides(req, 'flag', [], [gate({})], 2000)).toEqual({ action: 'approve', gate: 'case_review:case_1' })
    expect(applyOverrides(req, 'reject', [], [gate({})], 2000)).toEqual({ action: 'reject', gate: null })
    expect(applyOverrides(req, 'flag', [], [gate({})], 5000)).toEqual({ action: 'flag', gate: null })
    expect(applyOverrides(req, 'flag', [], [gate({})], 999)).toEqual({ action: 'flag', gate: null })
  })

  it('promotes to reject after fraud or chargeback; the newest outcome wins; admin overrides rank above', () => {
    expect(applyOverrides(req, 'approve', [], [gate({ outcome: 'fraud', until_ms: null })], 2000)).toEqual({ action: 'reject', gate: 'case_review:case_1' })
    const both = [gate({ outcome: 'fraud', until_ms: null }), gate({ case_id: 'case_2', outcome: 'safe', at_ms: 1500 })]
    expect(applyOverrides(req, 'flag', [], both, 2000)).toEqual({ action: 'approve', gate: 'case_review:case_2' })
    expect(applyOverrides(req, 'flag', [override({ action: 'flag' })], [gate({ outcome: 'fraud', until_ms: null })], 2000)).toEqual({ action: 'flag', gate: null })
  })
})

describe('decide: the three stages together', () => {
  it('approves a quiet request and records versions and the base action', () => {
    const e = decide({ event: 'payment', user_id: 'u1', amount: 40 }, ctx())
    expect(e.decision).toMatchObject({ action: 'approve', risk_level: 'low', rules: [] })
    expect(e).toMatchObject({ base_action: 'approve', override_gate: null, ruleset_version: 'rs_default_2', rule_errors: [] })
    expect(e.decision.shadow).toBeUndefined()
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
    const policy = policyWith([], { deny_users: ['u1'] })
    const e = decide({ event: 'payment', user_id: 'u1' }, ctx({ policy, overrides: [override({ action: 'approve' })] }))
    expect(e.base_action).toBe('reject')
    expect(e.decision.action).toBe('approve')
    expect(e.decision.rules).toEqual(['deny_list'])
    expect(e.override_gate).toBe('admin_override:ovr_1')
  })

  it('reports shadow rules under shadow without changing the action', () => {
    const policy = policyWith([rule({ id: 'r_shadow_amount', expression: 'request.amount > 30.0', action: 'reject', mode: 'shadow' })])
    const hit = decide({ event: 'payment', amount: 40 }, ctx({ policy }))
    expect(hit.decision.action).toBe('approve')
    expect(hit.decision.rules).toEqual([])
    expect(hit.decision.shadow).toEqual({ action: 'reject', rules: ['r_shadow_amount'] })
    const miss = decide({ event: 'payment', amount: 20 }, ctx({ policy }))
    expect(miss.decision.shadow).toEqual({ action: 'approve', rules: [] })
  })

  it('gives the same evaluation for the same request and context', () => {
    const request = { event: 'payment', user_id: 'u1', amount: 99 }
    expect(decide(request, ctx())).toEqual(decide(request, ctx()))
  })
})
