import { RE2JS } from 're2js'

/**
 * The regular expressions of tenant rules (CEL `string.matches(pattern)`), with RE2 semantics through re2js:
 * matching takes time linear in the input (no backtracking), so no pattern can stall the event loop the way
 * `^(a+)+$` does with JavaScript's RegExp. What RE2 cannot do in linear time (backreferences, lookahead,
 * lookbehind) does not compile: such a rule is refused when it is saved. The syntax is RE2's, which is what the
 * CEL specification names for `matches`: https://github.com/google/re2/wiki/Syntax
 */
export interface Re2Pattern {
  /** True when the pattern matches anywhere in `s` (CEL's `matches` is a partial match: anchor with ^ and $). */
  test(s: string): boolean
  /** Instructions of the compiled program: matching costs at most about this many steps per input character. */
  readonly instructions: number
}

/** Why a pattern does not compile with RE2 (re2js's own message, e.g. "invalid escape sequence: `\1`"). */
export class PatternError extends Error {}

export function compilePattern (pattern: string): Re2Pattern {
  let re: RE2JS
  try {
    re = RE2JS.compile(pattern)
  } catch (err) {
    const message = (err as Error).message.replace(/^error parsing regexp: /, '')
    throw new PatternError(`the pattern does not compile as an RE2 regular expression (linear time: no backreferences or lookaround): ${message}`)
  }
  return { test: s => re.test(s), instructions: Math.max(1, re.programSize()) }
}

/**
 * Patterns compiled once per ruleset compile: rules naming the same pattern share its program. Patterns are
 * string literals of the rules (see language.ts), so every one a ruleset needs is known and compiled up front.
 */
export class PatternCache {
  private readonly compiled = new Map<string, Re2Pattern>()

  get (pattern: string): Re2Pattern {
    let hit = this.compiled.get(pattern)
    if (hit === undefined) {
      hit = compilePattern(pattern)
      this.compiled.set(pattern, hit)
    }
    return hit
  }
}
