import { Environment, ParseError, TypeError as CelTypeError } from '@marcbachmann/cel-js'
import { lintRule, type LintContext } from './lint.js'
import type { Features, ScoreRequest } from '../decision/types.js'
import type { ListMatcher } from './lists.js'
import { budgetError, type RuleBudget } from './budget.js'
import { estimateCost, RULE_COST } from './cost.js'
import { nodesOf, type CelNode } from './ast.js'
import { estimatedInstructions, MAX_RULE_INSTRUCTIONS, PatternCache, PatternError, type Re2Pattern } from './regex.js'
import { BUILT_IN_DIMENSIONS, isDimension, isWindow, WINDOWS, type VelocityNeed, type Window } from '../features/velocity-spec.js'

/**
 * The tenant rule language: CEL (https://github.com/google/cel-spec) through @marcbachmann/cel-js.
 * An expression is parsed and type-checked once (per ruleset version) and evaluated per request.
 *
 * Variables:
 *   request  map   the named request fields (event, amount, currency, user_id, ip, device_id, email)
 *   custom   map   the client's extra keys, e.g. custom.card_bin
 *   geo      map   request.geo, e.g. geo.country
 *   metadata map   request.metadata
 *   signals  map   signal values, e.g. signals.sim_swap_confidence, signals.ip_reputation_v3
 * Functions:
 *   velocity(dimension, aggregate, window) -> double    aggregate "count" or "sum" (of amount), e.g. velocity("user", "count", "1h")
 *   velocity_distinct(dimension, of, window) -> double  distinct values of `of` seen with the dimension, e.g. velocity_distinct("user", "device", "24h")
 *   in_list(list, value) -> bool                        tenant lists, e.g. in_list("blocked_countries", geo.country)
 * Dimensions: user, device, ip, email, card (custom.card_fingerprint), merchant (custom.merchant_id or
 * custom.terminal_id), country (geo.country), custom.<key>, and label.<dimension> (transactions of the dimension
 * later labelled fraudulent). Windows: 1m 5m 10m 15m 30m 1h 2h 6h 12h 24h 7d 30d, by event time. The arguments must be literals: the rules' needs are known at compile time.
 * A rule whose expression reads an attribute the request lacks does not match (guard with has(...)).
 *
 * Cost (docs/rules.md, "Cost"): `string.matches(pattern)` runs with RE2 semantics (regex.ts: linear time, no
 * backreferences or lookaround), its pattern a string literal compiled once; an expression whose static cost
 * (cost.ts) is over the limit does not compile; and every comprehension (all, exists, exists_one, map, filter)
 * checks the request's runtime budget (budget.ts) before each iteration, so it stops soon after the budget is spent.
 */
/** What a rule sees of one request. Lists are sets, built once per ruleset version. */
export interface RuleInput {
  request: ScoreRequest
  features: Features
  signals: Record<string, number>
  lists: Record<string, ListMatcher>
}

/** The CEL activation of one request: built once, shared by every rule of the ruleset. */
export interface Activation {
  input: RuleInput
  variables: Record<string, unknown>
  /** The request's runtime budget; none: unbounded (backtests, bounded as a whole by their worker's time). */
  budget?: RuleBudget
}

export function activation (input: RuleInput, budget?: RuleBudget): Activation {
  const { custom, geo, metadata, ...named } = input.request
  return { input, variables: { request: named, custom: custom ?? {}, geo: geo ?? {}, metadata: metadata ?? {}, signals: input.signals }, budget }
}

export interface CompiledRule {
  expression: string
  /** Velocity aggregates the expression reads. */
  needs: VelocityNeed[]
  /** The static cost estimate (cost.ts), within RULE_COST.limit. */
  cost: number
  evaluate(activation: Activation): RuleResult
}

export type RuleResult = { matched: boolean, error?: undefined } | { matched: false, error: string }

export class RuleSyntaxError extends Error {
  constructor (message: string, readonly position: { offset: number, line: number, column: number }) {
    super(message)
  }
}

/** An expression over the cost limit (cost.ts): a RuleSyntaxError with its estimate. */
export class RuleCostError extends RuleSyntaxError {
  constructor (message: string, position: RuleSyntaxError['position'], readonly units: number) {
    super(message, position)
  }
}

// Each evaluation binds its own input, patterns and budget; evaluation is synchronous, so module-level slots are safe.
let current: RuleInput | undefined
let patterns: ReadonlyMap<string, Re2Pattern> | undefined
let budget: RuleBudget | undefined

/** Thrown by a comprehension's budget check once the budget is spent: made once, so throwing it costs nothing. */
const BUDGET_SPENT = new Error('rule budget spent')

function feature (name: string, call: string): number {
  const value = current!.features[name]
  if (value === undefined) throw new Error(`${call} is not available for this request (it lacks the dimension)`)
  return value
}

/** Before each iteration of a comprehension: charges the iteration's estimated units. */
function budgetCheck (units: number): boolean {
  if (budget?.charge(units) === true) throw BUDGET_SPENT
  return true
}

function re2Matches (s: string, pattern: string): boolean {
  const compiled = patterns?.get(pattern)
  if (compiled === undefined) throw new Error(`pattern ${JSON.stringify(pattern)} was not compiled`) // literals only: never
  if (budget?.charge(1 + (s.length + 1) * compiled.instructions / RULE_COST.regexProductsPerUnit) === true) throw BUDGET_SPENT
  return compiled.test(s)
}

/** The language as tenants write it: what an expression is parsed and type-checked with. */
const environment = new Environment({ homogeneousAggregateLiterals: false })
  .registerVariable('request', 'map')
  .registerVariable('custom', 'map')
  .registerVariable('geo', 'map')
  .registerVariable('metadata', 'map')
  .registerVariable('signals', 'map')
  .registerFunction('velocity(string, string, string): double', (dimension: string, aggregate: string, window: string) =>
    feature(`${dimension}_${aggregate}_${window}`, `velocity(${dimension}, ${aggregate}, ${window})`))
  .registerFunction('velocity_distinct(string, string, string): double', (dimension: string, of: string, window: string) =>
    feature(`${dimension}_distinct_${of}_${window}`, `velocity_distinct(${dimension}, ${of}, ${window})`))
  .registerFunction('in_list(string, dyn): bool', (list: string, value: unknown) =>
    typeof value === 'string' && current!.lists[list]?.has(value) === true)

/**
 * What a compiled expression runs with: the same, plus the budget check and RE2 `matches`. cel-js's own
 * `string.matches` uses JavaScript's backtracking RegExp and cannot be replaced (a second overload of the same
 * signature is refused), so compiled programs call `__matches` instead: runnable() renames every call.
 */
const running = environment.clone()
  .registerFunction('__budget(double): bool', budgetCheck)
  .registerFunction('string.__matches(string): bool', re2Matches)

function positionOf (expression: string, offset: number) {
  const before = expression.slice(0, offset)
  const lines = before.split('\n')
  return { offset, line: lines.length, column: lines[lines.length - 1]!.length + 1 }
}

/** velocity() and velocity_distinct() arguments must be literals naming a dimension, aggregate and window. */
function velocityNeeds (ast: unknown, expression: string, out: VelocityNeed[]): VelocityNeed[] {
  for (const n of nodesOf(ast)) {
    if (n.op !== 'call') continue
    const [name, args] = n.args as [string, CelNode[]]
    if (name !== 'velocity' && name !== 'velocity_distinct') continue
    const fail = (message: string) => { throw new RuleSyntaxError(message, positionOf(expression, n.start)) }
    const [dimension, second, window] = args.map(a => a.op === 'value' && typeof a.args === 'string' ? a.args : undefined)
    if (dimension === undefined || second === undefined || window === undefined) fail(`${name}() takes three string literals`)
    if (!isDimension(dimension!)) fail(`${name}() dimension must be one of ${BUILT_IN_DIMENSIONS.join(', ')}, merchant, country, user_event, ip24, ip16, email_domain, inflow or custom.<key>, optionally prefixed label., failed. or update.`)
    if (!isWindow(window!)) fail(`${name}() window must be one of ${Object.keys(WINDOWS).join(', ')}`)
    if (name === 'velocity') {
      if (second !== 'count' && second !== 'sum') fail('velocity() aggregate must be "count" or "sum"')
      out.push({ dimension: dimension!, aggregate: second as 'count' | 'sum', window: window as Window })
    } else {
      if (!isDimension(second!)) fail('velocity_distinct() second argument must be a dimension')
      out.push({ dimension: dimension!, aggregate: 'distinct', of: second!, window: window as Window })
    }
  }
  return out
}

/** Brackets open at once, and unary operators in a row, that an expression may hold (checked before parsing). */
export const EXPRESSION_LIMITS = { nesting: 32, unaryRun: 8 } as const

/**
 * Refuses what would make the parser or type checker recurse without bound, before either runs: brackets
 * nested deeper than EXPRESSION_LIMITS.nesting, or more unary operators (! and -) in a row than unaryRun.
 */
function complexityError (expression: string): RuleSyntaxError | undefined {
  let depth = 0
  let unary = 0
  let quote: string | undefined
  for (let i = 0; i < expression.length; i++) {
    const c = expression[i]!
    if (quote !== undefined) {
      if (c === '\\') i++
      else if (c === quote) quote = undefined
      continue
    }
    if (c === '"' || c === "'") { quote = c; unary = 0; continue }
    if (c === '(' || c === '[' || c === '{') {
      if (++depth > EXPRESSION_LIMITS.nesting) return new RuleSyntaxError(`brackets nest more than ${EXPRESSION_LIMITS.nesting} levels deep`, positionOf(expression, i))
    } else if (c === ')' || c === ']' || c === '}') {
      depth--
    }
    if (c === '!' && expression[i + 1] !== '=') {
      if (++unary > EXPRESSION_LIMITS.unaryRun) return new RuleSyntaxError(`more than ${EXPRESSION_LIMITS.unaryRun} unary operators in a row`, positionOf(expression, i))
    } else if (c === '-') {
      if (++unary > EXPRESSION_LIMITS.unaryRun) return new RuleSyntaxError(`more than ${EXPRESSION_LIMITS.unaryRun} unary operators in a row`, positionOf(expression, i))
    } else if (c !== ' ' && c !== '\t' && c !== '\n' && c !== '\r' && c !== '(') {
      unary = 0
    }
  }
  return undefined
}

const COMPREHENSIONS = new Set(['all', 'exists', 'exists_one', 'map', 'filter'])

/**
 * The patterns of the expression's matches() calls, compiled with RE2 (through `cache`, shared by a ruleset's
 * rules). A pattern must be a string literal (its cost is then known and it compiles once) that RE2 compiles.
 */
function matchPatterns (ast: unknown, expression: string, cache: PatternCache): Map<string, Re2Pattern> {
  const out = new Map<string, Re2Pattern>()
  let instructions = 0
  for (const n of nodesOf(ast)) {
    if (n.op !== 'rcall' || (n.args as unknown[])[0] !== 'matches') continue
    const pattern = ((n.args as unknown[])[2] as CelNode[])[0]
    if (pattern?.op !== 'value' || typeof pattern.args !== 'string') {
      throw new RuleSyntaxError('matches() takes a string literal pattern (its cost must be known when the rule is saved)', positionOf(expression, pattern?.start ?? n.start))
    }
    if (out.has(pattern.args)) continue
    // Compiling is bounded too: the patterns of one rule together, estimated before each is compiled.
    instructions += estimatedInstructions(pattern.args)
    if (instructions > MAX_RULE_INSTRUCTIONS) {
      throw new RuleSyntaxError(`the patterns of this rule may compile to more than ${MAX_RULE_INSTRUCTIONS.toLocaleString('en-US')} RE2 instructions in all (docs/rules.md, "Cost")`, positionOf(expression, pattern.start))
    }
    try {
      out.set(pattern.args, cache.get(pattern.args))
    } catch (err) {
      if (err instanceof PatternError) throw new RuleSyntaxError(err.message, positionOf(expression, pattern.start))
      throw err
    }
  }
  return out
}

/**
 * The expression as it runs: a budget charge of the iteration's estimated units before each iteration of every
 * comprehension (`P` becomes `__budget(u) ? (P) : false`, `map(x, T)` becomes `map(x, __budget(u), T)`, whose
 * filter a spent budget ends), inserted at the positions the parser gave, so nothing else of the text changes.
 */
function instrument (expression: string, ast: unknown, iterationUnits: ReadonlyMap<CelNode, number>): string {
  const inserts: Array<[number, string]> = []
  for (const n of nodesOf(ast)) {
    if (n.op !== 'rcall') continue
    const [name, , args] = n.args as [string, CelNode, CelNode[]]
    if (!COMPREHENSIONS.has(name) || args[0]?.op !== 'id') continue
    const charge = `__budget(${(iterationUnits.get(n) ?? 1).toFixed(1)})`
    if (name === 'map' && args.length === 2) { inserts.push([args[1]!.start, `${charge}, `]); continue }
    const predicate = args[1]!
    inserts.push([predicate.start, `${charge} ? (`], [predicate.end, ') : false'])
  }
  // From the end backwards, so earlier offsets stay valid; at one offset the later-found (inner) text goes first.
  inserts.sort((a, b) => b[0] - a[0])
  let text = expression
  for (const [at, insert] of inserts) text = text.slice(0, at) + insert + text.slice(at)
  return text
}

type Program = ((context: object) => unknown) & { ast: unknown, check: () => { valid: boolean, type?: string, error?: Error } }

/** The program that runs: the instrumented text, its matches() calls renamed to RE2's, type-checked. */
function runnable (expression: string, ast: unknown, iterationUnits: ReadonlyMap<CelNode, number>): Program {
  const program = running.parse(instrument(expression, ast, iterationUnits)) as Program
  for (const n of nodesOf(program.ast)) {
    if (n.op === 'rcall' && (n.args as unknown[])[0] === 'matches') (n.args as unknown[])[0] = '__matches'
  }
  const checked = program.check()
  if (!checked.valid) throw checked.error!
  return program
}

/** An error of a compiled program as the tenant wrote it (the internal names are renamed back). */
const publicMessage = (err: unknown) =>
  String((err as { summary?: string }).summary ?? (err as Error).message).replaceAll('__matches', 'matches')

/**
 * Parses and type-checks an expression, compiles its patterns (through `cache`: one per ruleset compile) and
 * bounds its cost; throws RuleSyntaxError naming the position of the problem. Any other failure of the parser
 * or checker (one this project has not met) is a RuleSyntaxError at the start too. `lint`: the tenant's context
 * to check the expression against as well (lint.ts), when a person is saving or validating it; a stored ruleset
 * is compiled without it.
 */
export function compileRule (expression: string, cache = new PatternCache(), lint?: LintContext): CompiledRule {
  const tooComplex = complexityError(expression)
  if (tooComplex !== undefined) throw tooComplex
  let program: Program
  let needs: VelocityNeed[]
  let compiledPatterns: Map<string, Re2Pattern>
  let cost: number
  try {
    const parsed = environment.parse(expression) as Program
    const checked = parsed.check()
    if (!checked.valid) throw checked.error!
    if (checked.type !== 'bool' && checked.type !== 'dyn') throw new RuleSyntaxError(`a rule expression must be a bool, this one is ${checked.type ?? 'unknown'}`, positionOf(expression, 0))
    const problem = lint === undefined ? undefined : lintRule(parsed.ast, lint)
    if (problem !== undefined) throw new RuleSyntaxError(problem.message, positionOf(expression, problem.offset))
    needs = velocityNeeds(parsed.ast, expression, [])
    compiledPatterns = matchPatterns(parsed.ast, expression, cache)
    const estimate = estimateCost(parsed.ast as CelNode, pattern => compiledPatterns.get(pattern)!.instructions)
    if (estimate.over !== undefined) throw new RuleCostError(estimate.over.message, positionOf(expression, estimate.over.offset), estimate.units)
    cost = estimate.units
    program = runnable(expression, parsed.ast, estimate.iterationUnits)
  } catch (err) {
    if (err instanceof RuleSyntaxError) throw err
    if (err instanceof ParseError || err instanceof CelTypeError) {
      const range = (err as unknown as { range?: { start: number } }).range
      const summary = (err as unknown as { summary?: string }).summary ?? err.message
      throw new RuleSyntaxError(summary, positionOf(expression, range?.start ?? 0))
    }
    throw new RuleSyntaxError(`the expression could not be compiled (${(err as Error).message})`, positionOf(expression, 0))
  }
  return {
    expression,
    needs,
    cost,
    evaluate (bound) {
      current = bound.input
      patterns = compiledPatterns
      budget = bound.budget
      // cel-js makes an Error per failed step (an absorbed one too): without stack traces each costs a third.
      const stackTraceLimit = Error.stackTraceLimit
      Error.stackTraceLimit = 0
      try {
        if (bound.budget?.charge(1) === true) return { matched: false, error: budgetError(bound.budget, false) }
        const value = program(bound.variables)
        if (typeof value !== 'boolean') return { matched: false, error: `expression returned ${typeof value}, not a bool` }
        return { matched: value }
      } catch (err) {
        if (bound.budget?.exhausted === true) return { matched: false, error: budgetError(bound.budget, true) }
        return { matched: false, error: publicMessage(err) }
      } finally {
        Error.stackTraceLimit = stackTraceLimit
        current = undefined
        patterns = undefined
        budget = undefined
      }
    }
  }
}
