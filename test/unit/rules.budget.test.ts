import { describe, expect, it } from 'vitest'
import { decide, type DecisionContext } from '../../src/domain/decision/decide.js'
import { defaultPolicy } from '../../src/domain/decision/default-policy.js'
import { PRIOR } from '../../src/domain/model/model.js'
import { RuleBudget } from '../../src/domain/rules/budget.js'
import { activation, compileRule } from '../../src/domain/rules/language.js'
import { compileRuleset } from '../../src/domain/rules/ruleset.js'
import type { Rule, ScoreRequest } from '../../src/domain/decision/types.js'

/** A clock that moves `step` ms each time it is read, and counts the reads. */
function steppingClock (step: number) {
  const clock = { reads: 0, now: () => clock.reads++ * step }
  return clock
}

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
  it('skips the rules left once the budget is spent and records each one in rule_errors', () => {
    // Each rule reads the clock once before it runs; the clock moves 1 ms a read; the budget is 2.5 ms.
    const clock = steppingClock(1)
    const budget = new RuleBudget(2.5, clock.now)
    const rules = [rule('r1', 'request.amount > 1.0', 1), rule('r2', 'request.amount > 2.0', 2), rule('r3', 'request.amount > 3.0', 3), rule('r4', 'request.amount > 4.0', 4, 'shadow')]
    const evaluation = decide(request, context(rules, budget))
    expect(evaluation.decision.rules).toEqual(['r1', 'r2'])
    expect(evaluation.rule_errors).toEqual([
      { id: 'r3', error: 'not evaluated: the rules of this request spent their 2.5 ms budget' },
      { id: 'r4', error: 'not evaluated: the rules of this request spent their 2.5 ms budget' }
    ])
    expect(budget.exhausted).toBe(true)
  })

  it('stops a comprehension within a few iterations of the deadline, and reports the rule as stopped', () => {
    // 990 iterations would read the clock 61 times (every 16th iteration); it stops after the deadline.
    const clock = steppingClock(1)
    const budget = new RuleBudget(3, clock.now)
    const program = compileRule('custom.m.exists(k, k == "none")')
    const result = program.evaluate(activation({ request, features: {}, signals: {}, lists: {} }, budget))
    expect(result).toEqual({ matched: false, error: 'stopped: the rules of this request spent their 3 ms budget' })
    expect(clock.reads).toBeLessThan(10)
  })

  it('does not count time the process was not running: the CPU clock must pass the budget too', () => {
    const wall = steppingClock(10)
    let cpu = 0
    const budget = new RuleBudget(5, wall.now, () => cpu)
    expect(budget.spent()).toBe(false) // 10 ms of wall clock later, no CPU used: descheduled, not spent
    cpu = 4
    expect(budget.spent()).toBe(false)
    cpu = 6
    expect(budget.spent()).toBe(true)
    expect(budget.exhausted).toBe(true)
  })

  it('gives the same answer as without a budget when the budget is not spent', () => {
    const program = compileRule('custom.a.exists(x, x == 99) && custom.a.map(x, x * 2.0).filter(y, y > 150.0).size() == 24')
    const bound = (budget?: RuleBudget) => activation({ request, features: {}, signals: {}, lists: {} }, budget)
    expect(program.evaluate(bound())).toEqual({ matched: true })
    expect(program.evaluate(bound(new RuleBudget(60_000, () => performance.now())))).toEqual({ matched: true })
  })

  it('a result CEL decides despite a stopped part stands (true || error is true)', () => {
    const clock = steppingClock(1)
    const budget = new RuleBudget(1, clock.now)
    const program = compileRule('request.amount > 1.0 || custom.m.exists(k, k == "none")')
    expect(program.evaluate(activation({ request, features: {}, signals: {}, lists: {} }, budget))).toEqual({ matched: true })
  })
})
