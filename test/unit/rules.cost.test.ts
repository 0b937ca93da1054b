import { describe, expect, it } from 'vitest'
import { defaultPolicy } from '../../src/domain/decision/default-policy.js'
import { INPUT, RULE_COST } from '../../src/domain/rules/cost.js'
import { compileRule, RuleCostError, RuleSyntaxError } from '../../src/domain/rules/language.js'
import { LIMITS } from '../../src/services/input-limits.js'

const costOf = (expression: string) => compileRule(expression).cost
const refusal = (expression: string): RuleCostError => {
  try {
    compileRule(expression)
  } catch (err) {
    expect(err).toBeInstanceOf(RuleCostError)
    return err as RuleCostError
  }
  throw new Error(`${expression} was not refused`)
}

/** Rules as the default policy, the project's tests and benchmarks write them: none may be refused. */
const ORDINARY = [
  ...defaultPolicy().ruleset.rules.map(r => r.expression),
  'request.amount > 1000.0',
  'request.amount > 100.0 && request.currency != "USD"',
  'in_list("blocked_countries", geo.country)',
  'velocity("user", "sum", "24h") > 5000.0 || velocity("ip", "count", "1h") > 20.0',
  'signals.sim_swap_confidence > 0.8 && request.event == "payout"',
  'request.email.endsWith("@mailinator.com") && custom.card_bin.startsWith("4111")',
  'request.event in ["payment", "payout", "signup"] && signals.ip_reputation_v3 < 0.3',
  'request.event == "login" && velocity("user", "count", "1h") > 10.0',
  'request.email.matches("^[a-z0-9._%+-]+@[a-z0-9.-]+\\\\.[a-z]{2,}$")',
  'custom.items.exists(i, i.price > 100.0)',
  'custom.items.exists(i, i.price > 100.0 && i.qty > 2)',
  'custom.items.map(i, i.price).exists(p, p > 500.0)',
  'custom.items.filter(i, i.category == "gift_card").size() > 2',
  'custom.note.contains("refund") || custom.note.matches("(?i)chargeback")'
]

describe('rule cost estimate', () => {
  it('bounds request input by the API input limits', () => {
    // The estimate's own copy of the limits (the domain cannot import services) agrees with them.
    expect(INPUT.items).toBe(Math.max(LIMITS.arrayItems, LIMITS.totalKeys))
    expect(INPUT.chars).toBe(LIMITS.stringLength)
    expect(INPUT.requestChars).toBe(LIMITS.eventBytes)
    expect(INPUT.keyChars).toBe(LIMITS.keyLength)
  })

  it('admits the default rules and ordinary rules, well within the limit', () => {
    for (const expression of ORDINARY) expect(costOf(expression), expression).toBeLessThanOrEqual(RULE_COST.limit)
    for (const rule of defaultPolicy().ruleset.rules) expect(costOf(rule.expression), rule.id).toBeLessThan(RULE_COST.limit / 50)
  })

  it('refuses the 3-deep exists of the issue at the comprehension over the limit, with line and column', () => {
    const err = refusal('custom.a.exists(x,\n  custom.a.exists(y, custom.a.exists(z, x == y + z + 1000)))')
    expect(err.message).toMatch(/^exists\(\) over up to 1,000 items, each costing up to [\d,]+ units: estimated cost [\d,]+ units exceeds the limit of 250,000 units per rule/)
    // The smallest part over the limit is named: here the innermost exists already is (line 2, column 22).
    expect(err.position).toMatchObject({ line: 2, column: 22 })
    expect(err.units).toBeGreaterThan(1e8)
  })

  it('refuses a 100^3 map(), a 2-deep exists and a product of two inputs, each where it starts', () => {
    expect(refusal('custom.a.map(x, custom.a.map(y, custom.a.map(z, 1))).size() > 0').position.column).toBe(17)
    expect(refusal('custom.a.exists(x, custom.b.exists(y, x == y))').position.column).toBe(1)
    expect(refusal('size(custom.a.filter(x, custom.b.all(y, y != x))) > 0').message).toMatch(/^filter\(\) over up to 1,000 items/)
  })

  it('multiplies nesting: one level over input is linear, each further level costs the input size again', () => {
    const one = costOf('custom.a.exists(x, x == 1)')
    const inner = costOf('[1, 2, 3].exists(y, y == 1)')
    const two = refusal('custom.a.exists(x, custom.a.exists(y, x == y))').units
    expect(one).toBeGreaterThan(INPUT.items)
    expect(inner).toBeLessThan(500)
    expect(two).toBeGreaterThan(one * INPUT.items / 2)
    // Literal lists are as long as they are written: nesting over them is cheap.
    expect(costOf('[1, 2, 3].exists(x, [4, 5].exists(y, x == y))')).toBeLessThan(2_000)
  })

  it('prices errors: a predicate that can fail on every item costs more than one that cannot', () => {
    const safe = costOf('custom.a.exists(x, x == 1)')
    const failing = costOf('custom.a.exists(x, x.price > 1.0)')
    expect(failing).toBeGreaterThan(safe + INPUT.items * RULE_COST.errorUnits / 2)
  })

  it('prices strings by their length: named fields by their bounds, other input by the string limit', () => {
    const named = costOf('request.user_id.contains("x")')
    const custom = costOf('custom.note.contains("x")')
    expect(custom - named).toBeGreaterThanOrEqual(Math.floor((INPUT.chars - 256) / RULE_COST.charsPerUnit))
    // split() makes a list as long as the string: iterating it is priced so.
    expect(costOf('custom.s.split(",").exists(x, x == "a")')).toBeGreaterThan(INPUT.chars)
  })

  it('prices matches() by characters x RE2 instructions and refuses a large program over a long string', () => {
    const small = costOf('request.user_id.matches("^(a+)+$")')
    expect(small).toBeLessThan(5_000)
    expect(costOf('custom.note.matches("^(a+)+$")')).toBeGreaterThan(small * 10)
    const err = refusal('custom.note.matches("[a-z]{1,500}x")')
    expect(err.message).toMatch(/^matches\(\) of a pattern of [\d,]+ RE2 instructions over up to 8,192 characters/)
    expect(err.position.column).toBe(1)
  })

  it('refuses anywhere the expression is compiled with a RuleSyntaxError, so every caller reports line and column', () => {
    expect(() => compileRule('custom.a.exists(x, custom.a.exists(y, x == y))')).toThrow(RuleSyntaxError)
  })
})
