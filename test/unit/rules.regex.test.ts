import { describe, expect, it } from 'vitest'
import { activation, compileRule, RuleSyntaxError, type RuleInput } from '../../src/domain/rules/language.js'
import { compilePattern, estimatedInstructions, MAX_PATTERN_INSTRUCTIONS, PatternCache, PatternError } from '../../src/domain/rules/regex.js'
import { compileRuleset, RulesetCache } from '../../src/domain/rules/ruleset.js'
import type { Rule } from '../../src/domain/decision/types.js'

const input = (request: RuleInput['request']): RuleInput => ({ request, features: {}, signals: {}, lists: {} })
const run = (expression: string, request: RuleInput['request']) => compileRule(expression).evaluate(activation(input(request)))
const syntaxError = (expression: string): RuleSyntaxError => {
  try {
    compileRule(expression)
  } catch (err) {
    expect(err).toBeInstanceOf(RuleSyntaxError)
    return err as RuleSyntaxError
  }
  throw new Error(`${expression} compiled`)
}

describe('matches() with RE2 semantics', () => {
  it('is a partial match, as CEL specifies, with RE2 syntax (inline flags, Unicode classes)', () => {
    expect(run('request.email.matches("@mailinator\\\\.com$")', { event: 'x', email: 'a@mailinator.com' })).toEqual({ matched: true })
    expect(run('request.user_id.matches("^u[0-9]+$")', { event: 'x', user_id: 'u12x' })).toEqual({ matched: false })
    expect(run('request.user_id.matches("(?i)^ADMIN")', { event: 'x', user_id: 'admin-1' })).toEqual({ matched: true })
    expect(run('custom.name.matches("^\\\\p{Greek}+$")', { event: 'x', custom: { name: 'αβγ' } })).toEqual({ matched: true })
  })

  it('matches in linear time: ^(a+)+$ over the issue input and over 8,000 characters', () => {
    // JavaScript's RegExp takes about a second on 27 a's and "!", twice that per extra a; RE2 does not backtrack.
    expect(run('request.user_id.matches("^(a+)+$")', { event: 'x', user_id: 'a'.repeat(27) + '!' })).toEqual({ matched: false })
    expect(run('custom.note.matches("^(a+)+$")', { event: 'x', custom: { note: 'a'.repeat(8000) + '!' } })).toEqual({ matched: false })
    expect(run('custom.note.matches("^(a|aa)+$")', { event: 'x', custom: { note: 'a'.repeat(8000) } })).toEqual({ matched: true })
  })

  it('refuses at compile time what RE2 cannot match in linear time, at the pattern\'s line and column', () => {
    const backreference = syntaxError('request.user_id.matches("(a)\\\\1")')
    expect(backreference.message).toMatch(/does not compile as an RE2 regular expression.*invalid escape sequence/)
    expect(backreference.position).toMatchObject({ line: 1, column: 25 })
    expect(syntaxError('request.user_id.matches("a(?=b)")').message).toMatch(/RE2/)
    expect(syntaxError('true &&\n  request.user_id.matches("(?<=a)b")').position).toMatchObject({ line: 2, column: 27 })
    expect(syntaxError('request.user_id.matches("a{1001}")').message).toMatch(/invalid repeat count/)
  })

  it('bounds what compiling costs: a pattern whose repetitions would make a large program is refused before RE2 compiles it', () => {
    // Ordinary patterns are estimated far below the bound, and at or above what RE2 compiles them to.
    for (const p of ['^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$', '[0-9]{13,19}', '^[0-9a-f]{8}-[0-9a-f]{4}-', 'a{1000}']) {
      expect(estimatedInstructions(p), p).toBeLessThan(MAX_PATTERN_INSTRUCTIONS)
      expect(estimatedInstructions(p), p).toBeGreaterThanOrEqual(compilePattern(p).instructions)
    }
    // [\pL\pN]{1,1000} takes RE2 tens of ms to compile (2,001 instructions of Unicode ranges).
    expect(() => compilePattern('[\\pL\\pN]{1,1000}')).toThrow(/may compile to about [\d,]+ RE2 instructions, more than the 5,000/)
    expect(syntaxError('request.event.matches("(\\\\pL|\\\\pN){1,1000}")').position.column).toBe(23)
    // And the patterns of one rule together.
    const many = Array.from({ length: 8 }, (_, i) => `request.event.matches("[a-z]{1,${300 + i}}")`).join(' || ')
    expect(syntaxError(many).message).toMatch(/patterns of this rule may compile to more than 10,000 RE2 instructions/)
  })

  it('takes string literal patterns only (compiled once, their cost known)', () => {
    const err = syntaxError('request.user_id.matches(custom.pattern)')
    expect(err.message).toMatch(/string literal pattern/)
    expect(err.position.column).toBe(25)
  })

  it('names the method as the tenant wrote it when it fails at run time', () => {
    expect(run('custom.n.matches("1")', { event: 'x', custom: { n: 1 } }).error).toMatch(/matches/)
    expect(run('custom.n.matches("1")', { event: 'x', custom: { n: 1 } }).error).not.toMatch(/__/)
  })

  it('compiles each pattern once per ruleset, shared by the rules naming it', () => {
    const cache = new PatternCache()
    expect(cache.get('^a+$')).toBe(cache.get('^a+$'))
    expect(() => compilePattern('(a)\\1')).toThrow(PatternError)
    const rule = (id: string, expression: string): Rule => ({ id, name: id, expression, action: 'flag', mode: 'enforce', priority: 1, description: '', status: 'active' })
    const compiled = compileRuleset({ version: 'rs_1', rules: [rule('a', 'request.user_id.matches("^u")'), rule('b', 'request.email.matches("^u")')], lists: {} })
    expect(compiled.enforce.map(e => e.program.evaluate(activation(input({ event: 'x', user_id: 'u1', email: 'u@x.io' }))))).toEqual([{ matched: true }, { matched: true }])
  })

  it('compiles a rule once across ruleset versions: a new version compiles only what changed', () => {
    const rule = (id: string, expression: string): Rule => ({ id, name: id, expression, action: 'flag', mode: 'enforce', priority: 1, description: '', status: 'active' })
    const cache = new RulesetCache()
    const v1 = cache.get('ten:test', { version: 'rs_1', rules: [rule('a', 'request.user_id.matches("^u")')], lists: {} })
    const v2 = cache.get('ten:test', { version: 'rs_2', rules: [rule('a', 'request.user_id.matches("^u")'), rule('b', 'request.amount > 1.0')], lists: {} })
    expect(v2.enforce.find(e => e.rule.id === 'a')!.program).toBe(v1.enforce[0]!.program)
  })

  it('a stored rule that no longer compiles runs nowhere and says why in every evaluation', () => {
    const stored: Rule = { id: 'old', name: 'old', expression: 'request.user_id.matches("(a)\\\\1")', action: 'reject', mode: 'enforce', priority: 1, description: '', status: 'active' }
    const compiled = compileRuleset({ version: 'rs_9', rules: [stored], lists: {} })
    const result = compiled.enforce[0]!.program.evaluate(activation(input({ event: 'x', user_id: 'aa' })))
    expect(result.matched).toBe(false)
    expect(result.error).toMatch(/^refused: .*RE2.*\(line 1, column 25\)/)
  })
})
