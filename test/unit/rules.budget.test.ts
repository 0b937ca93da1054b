import { describe, expect, it } from 'vitest'
import { decide, type DecisionContext } from '../../src/domain/decision/decide.js'
import { defaultPolicy } from '../../src/domain/decision/default-policy.js'
import { PRIOR } from '../../src/domain/model/model.js'
import { RuleBudget } from '../../src/domain/rules/budget.js'
import { activation, compileRule } from '../../src/domain/rules/language.js'
import { compileRuleset } from '../../src/domain/rules/ruleset.js'
import type { Rule, ScoreRequest } from '../../src/domain/decision/types.js'

const rule = (id: string, expression: string, priority: number, mode: Rule['mode'] = 'enforce'): Rule =>
  ({ id, name: id, expression, action: 'flag', mode, priority, description: '', status: 'active' })

function context (rules: Rule[], budget: RuleBudget): DecisionContext {
  const policy = defaultPolicy()
  policy.ruleset.rules = rules
  policy.ruleset.version = `rs_budget_${Math.random()}`
  return { features: {}, policy, rules: compileRuleset(policy.ruleset), signals: {}, model: PRIOR, overrides: [], caseGates: [], now_ms: 0, tenant: 'ten_b', fallback_subject: 'trc_b', budget }
}

const request: ScoreRequest = { event: 'payment', amount: 10, user_id: 'u1', custom: { a: Array.from({ length: 100 }, (_, i) => i), m: Object.fromEntries(Array.from({ length: 990 }, (_, i) => [`k${i}`, i])) } }

describe('runtime rule budget', () => {
  const bound = (budget?: RuleBudget) => activation({ request, features: {}, signals: {}, lists: {} }, budget)

  it('skips the rules left once the budget is spent and records each one in rule_errors', () => {
    // Each rule evaluated is charged one unit: a budget of 2 units runs two rules.
    const budget = new RuleBudget(2)
    const rules = [rule('r1', 'request.amount > 1.0', 1), rule('r2', 'request.amount > 2.0', 2), rule('r3', 'request.amount > 3.0', 3), rule('r4', 'request.amount > 4.0', 4, 'shadow')]
    const evaluation = decide(request, context(rules, budget))
    expect(evaluation.decision.rules).toEqual(['r1', 'r2'])
    const skipped = 'not evaluated: the rules of this request spent their budget of 2 cost units'
    expect(evaluation.rule_errors).toEqual([{ id: 'r3', error: skipped }, { id: 'r4', error: skipped }])
    expect(budget.exhausted).toBe(true)
  })

  it('charges each comprehension iteration its estimated units, and stops the comprehension at the first past the budget', () => {
    const program = compileRule('custom.m.exists(k, k == "none")')
    // Unbounded, the 990 iterations are charged in full; the charge does not depend on the machine.
    const measured = new RuleBudget(Number.MAX_SAFE_INTEGER)
    expect(program.evaluate(bound(measured))).toEqual({ matched: false })
    const perIteration = (measured as unknown as { used: number }).used - 1
    expect(perIteration % 990).toBe(0)
    // A budget of 100 iterations' worth stops it, as stopped, not as not evaluated.
    const budget = new RuleBudget(1 + 100 * perIteration / 990)
    expect(program.evaluate(bound(budget))).toEqual({ matched: false, error: `stopped: the rules of this request spent their budget of ${budget.units.toLocaleString('en-US')} cost units` })
  })

  it('charges matches() by the characters it reads: a long input spends what a short one does not', () => {
    const program = compileRule('request.user_id.matches("^(a+)+$")')
    const cheap = new RuleBudget(200)
    expect(program.evaluate(activation({ request: { event: 'login', user_id: 'aaa' }, features: {}, signals: {}, lists: {} }, cheap))).toEqual({ matched: true })
    const long = { event: 'login', user_id: 'a'.repeat(256) }
    expect(program.evaluate(activation({ request: long, features: {}, signals: {}, lists: {} }, new RuleBudget(200))).error).toMatch(/^stopped: /)
  })

  it('is repeatable: the same request and rule spend the same units every time', () => {
    const program = compileRule('custom.a.exists(x, x == 99) && custom.a.map(x, x * 2.0).filter(y, y > 150.0).size() == 24')
    const spent = () => { const b = new RuleBudget(Number.MAX_SAFE_INTEGER); program.evaluate(bound(b)); return (b as unknown as { used: number }).used }
    const first = spent()
    expect(first).toBeGreaterThan(300)
    for (let i = 0; i < 5; i++) expect(spent()).toBe(first)
  })

  it('gives the same answer as without a budget when the budget is not spent', () => {
    const program = compileRule('custom.a.exists(x, x == 99) && custom.a.map(x, x * 2.0).filter(y, y > 150.0).size() == 24')
    expect(program.evaluate(bound())).toEqual({ matched: true })
    expect(program.evaluate(bound(new RuleBudget(1_000_000)))).toEqual({ matched: true })
  })

  it('a result CEL decides despite a stopped part stands (true || error is true)', () => {
    const program = compileRule('request.amount > 1.0 || custom.m.exists(k, k == "none")')
    expect(program.evaluate(bound(new RuleBudget(5)))).toEqual({ matched: true })
  })
})
