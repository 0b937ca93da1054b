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

/**
 * Instructions a pattern may compile to, at most (checked before compiling: RE2 compiles in time proportional
 * to its program, and counted repetition multiplies it, so `[\pL\pN]{1,1000}` alone takes tens of ms). Ordinary
 * patterns need a few hundred.
 */
export const MAX_PATTERN_INSTRUCTIONS = 5_000
/** The same for all the patterns of one rule together. */
export const MAX_RULE_INSTRUCTIONS = 10_000

/** Unicode classes compile to many ranges: each counts as this many characters of the pattern. */
const UNICODE_CLASS_WEIGHT = 50

/**
 * An upper estimate of a pattern's program size read from its text, without compiling it: each character one
 * instruction (a Unicode class \p.. UNICODE_CLASS_WEIGHT), a group or class as the sum of its parts, counted
 * repetition {n,m} multiplying what it repeats by 2 (max(n, m) + 1), as RE2 spells x{1,n} as n nested optionals.
 */
export function estimatedInstructions (pattern: string): number {
  const stack: number[] = [0]
  let last = 0 // weight of the atom or group just read, which a repetition applies to
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!
    let atom = 1
    if (c === '\\') {
      const next = pattern[i + 1]
      if (next === 'p' || next === 'P') {
        atom = UNICODE_CLASS_WEIGHT
        if (pattern[i + 2] === '{') i = Math.max(i + 2, pattern.indexOf('}', i + 2))
        else i += 2
      } else {
        i++
      }
    } else if (c === '[') {
      let j = i + 1
      if (pattern[j] === '^') j++
      if (pattern[j] === ']') j++
      atom = 0
      for (; j < pattern.length && pattern[j] !== ']'; j++) {
        if (pattern[j] === '\\') { atom += pattern[j + 1] === 'p' || pattern[j + 1] === 'P' ? UNICODE_CLASS_WEIGHT : 1; j++ } else if (pattern[j] === '[' && pattern[j + 1] === ':') { atom += UNICODE_CLASS_WEIGHT; j = Math.max(j, pattern.indexOf(':]', j)) + 1 } else atom++
      }
      i = j
    } else if (c === '(') {
      stack.push(0)
      continue
    } else if (c === ')') {
      atom = stack.length > 1 ? stack.pop()! : 0
    } else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i))
      if (m !== null) {
        const times = 2 * (Math.max(Number(m[1]), Number(m[3] === undefined || m[3] === '' ? 0 : m[3])) + 1)
        stack[stack.length - 1]! += last * (times - 1)
        last *= times
        i += m[0].length - 1
        continue
      }
    }
    stack[stack.length - 1]! += atom
    last = atom
  }
  return stack.reduce((a, b) => a + b, 0)
}

export function compilePattern (pattern: string): Re2Pattern {
  const estimate = estimatedInstructions(pattern)
  if (estimate > MAX_PATTERN_INSTRUCTIONS) {
    throw new PatternError(`the pattern may compile to about ${estimate.toLocaleString('en-US')} RE2 instructions, more than the ${MAX_PATTERN_INSTRUCTIONS.toLocaleString('en-US')} a pattern may have (lower the counts of {n,m} repetitions)`)
  }
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
