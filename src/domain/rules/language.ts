import { Environment, ParseError, TypeError as CelTypeError } from '@marcbachmann/cel-js'
import type { Features, ScoreRequest } from '../decision/types.js'
import type { ListMatcher } from './lists.js'
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
}

export function activation (input: RuleInput): Activation {
  const { custom, geo, metadata, ...named } = input.request
  return { input, variables: { request: named, custom: custom ?? {}, geo: geo ?? {}, metadata: metadata ?? {}, signals: input.signals } }
}

export interface CompiledRule {
  expression: string
  /** Velocity aggregates the expression reads. */
  needs: VelocityNeed[]
  evaluate(activation: Activation): RuleResult
}

export type RuleResult = { matched: boolean, error?: undefined } | { matched: false, error: string }

export class RuleSyntaxError extends Error {
  constructor (message: string, readonly position: { offset: number, line: number, column: number }) {
    super(message)
  }
}

// Each evaluation binds its own input; evaluation is synchronous, so a module-level slot is safe.
let current: RuleInput | undefined

function feature (name: string, call: string): number {
  const value = current!.features[name]
  if (value === undefined) throw new Error(`${call} is not available for this request (it lacks the dimension)`)
  return value
}

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

function positionOf (expression: string, offset: number) {
  const before = expression.slice(0, offset)
  const lines = before.split('\n')
  return { offset, line: lines.length, column: lines[lines.length - 1]!.length + 1 }
}

interface AstNode { op: string, args: unknown, pos?: number, start?: number }

/** velocity() and velocity_distinct() arguments must be literals naming a dimension, aggregate and window. */
function velocityNeeds (node: unknown, expression: string, out: VelocityNeed[]): VelocityNeed[] {
  if (node === null || typeof node !== 'object') return out
  if (Array.isArray(node)) { for (const n of node) velocityNeeds(n, expression, out); return out }
  const n = node as AstNode
  if (n.op === 'call' && Array.isArray(n.args) && (n.args[0] === 'velocity' || n.args[0] === 'velocity_distinct')) {
    const fail = (message: string) => { throw new RuleSyntaxError(message, positionOf(expression, n.pos ?? n.start ?? 0)) }
    const [dimension, second, window] = (n.args[1] as AstNode[]).map(a => a.op === 'value' && typeof a.args === 'string' ? a.args : undefined)
    if (dimension === undefined || second === undefined || window === undefined) fail(`${n.args[0]}() takes three string literals`)
    if (!isDimension(dimension!)) fail(`${n.args[0]}() dimension must be one of ${BUILT_IN_DIMENSIONS.join(', ')}, merchant, country or custom.<key>, optionally prefixed label.`)
    if (!isWindow(window!)) fail(`${n.args[0]}() window must be one of ${Object.keys(WINDOWS).join(', ')}`)
    if (n.args[0] === 'velocity') {
      if (second !== 'count' && second !== 'sum') fail('velocity() aggregate must be "count" or "sum"')
      out.push({ dimension: dimension!, aggregate: second as 'count' | 'sum', window: window as Window })
    } else {
      if (!isDimension(second!)) fail('velocity_distinct() second argument must be a dimension')
      out.push({ dimension: dimension!, aggregate: 'distinct', of: second!, window: window as Window })
    }
  }
  for (const value of Object.values(n)) if (typeof value === 'object') velocityNeeds(value, expression, out)
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

/**
 * Parses and type-checks an expression; throws RuleSyntaxError naming the position of the problem. Any other
 * failure of the parser or checker (one this project has not met) is a RuleSyntaxError at the start too.
 */
export function compileRule (expression: string): CompiledRule {
  const tooComplex = complexityError(expression)
  if (tooComplex !== undefined) throw tooComplex
  let program: ((context: object) => unknown) & { ast: unknown }
  let needs: VelocityNeed[]
  try {
    program = environment.parse(expression) as typeof program
    const checked = environment.check(expression) as { valid: boolean, type?: string, error?: Error }
    if (!checked.valid) throw checked.error!
    if (checked.type !== 'bool' && checked.type !== 'dyn') throw new RuleSyntaxError(`a rule expression must be a bool, this one is ${checked.type ?? 'unknown'}`, positionOf(expression, 0))
    needs = velocityNeeds(program.ast, expression, [])
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
    evaluate (bound) {
      current = bound.input
      try {
        const value = program(bound.variables)
        if (typeof value !== 'boolean') return { matched: false, error: `expression returned ${typeof value}, not a bool` }
        return { matched: value }
      } catch (err) {
        return { matched: false, error: (err as { summary?: string }).summary ?? (err as Error).message }
      } finally {
        current = undefined
      }
    }
  }
}
