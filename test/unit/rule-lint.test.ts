import { Environment } from '@marcbachmann/cel-js'
import { describe, expect, it } from 'vitest'
import { lintRule, REQUEST_FIELDS } from '../../src/domain/rules/lint.js'
import { NAMED_FIELDS } from '../../src/services/score-schema.js'

const env = new Environment({ homogeneousAggregateLiterals: false }).registerVariable('request', 'map').registerVariable('custom', 'map')
  .registerFunction('in_list(string, dyn): bool', () => false)
const lint = (expression: string, lists: string[] = ['deny_emails']) => lintRule(env.parse(expression).ast, { lists: new Set(lists) })

describe('lintRule', () => {
  it('finds a field a request never has, and names the one meant', () => {
    expect(lint('request.amout > 100.0')).toEqual({ offset: 0, message: expect.stringMatching(/^request has no field 'amout' \(did you mean 'amount'\?\)/) })
    expect(lint('request.event == "payment" && request.country == "FR"')?.message).toMatch(/no field 'country'; its fields are .*own keys are under custom/)
  })

  it('finds a comparison of a number with a string, or a string with a number, on either side', () => {
    expect(lint('request.amount > "500"')?.message).toBe('request.amount is a number, compared here with a string: the comparison is never true (write 500 without quotes)')
    expect(lint('"500" < request.amount')?.message).toMatch(/request.amount is a number/)
    expect(lint('request.currency == 978')?.message).toMatch(/request.currency is a string, compared here with a number/)
  })

  it('finds in_list naming a list the tenant does not have, at the list\u2019s name', () => {
    const problem = lint('request.amount > 1.0 && in_list("deny_email", request.email)')
    expect(problem?.message).toBe("no value list is named 'deny_email' (did you mean 'deny_emails'?); create it first (POST /v1/lists)")
    expect(problem?.offset).toBe('request.amount > 1.0 && in_list('.length)
  })

  it('passes what is right', () => {
    for (const ok of ['request.amount > 100.0 && in_list("deny_emails", request.email)', 'has(custom.tier) && custom.tier == "gold"', 'request.event_time > 0 || request.ip.startsWith("10.")']) expect(lint(ok), ok).toBeUndefined()
  })

  it('knows exactly the score request\u2019s named fields that rules see on `request`', () => {
    expect(Object.keys(REQUEST_FIELDS).sort()).toEqual([...NAMED_FIELDS].filter(f => f !== 'geo' && f !== 'metadata').sort())
  })
})
