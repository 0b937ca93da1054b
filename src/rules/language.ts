import { Environment, ParseError, TypeError as CelTypeError } from '@marcbachmann/cel-js'
import type { Features, ScoreRequest } from '../decision/types.js'
import type { ListMatcher } from './lists.js'

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
 *   velocity(dimension, aggregate, window) -> double   e.g. velocity("user", "count", "1h")
 *   in_list(list, value) -> bool                       tenant lists, e.g. in_list("blocked_countries", geo.country)
 * A rule whose expression reads an attribute the request lacks does not match (guard with has(...)).
 */
export const VELOCITY_DIMENSIONS = ['user', 'device', 'ip', 'email'] as const
export const VELOCITY_AGGREGATES = ['count', 'amount'] as const
export const VELOCITY_WINDOWS = ['1h', '24h'] as const

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

const environment = new Environment({ homogeneousAggregateLiterals: false })
  .registerVariable('request', 'map')
  .registerVariable('custom', 'map')
  .registerVariable('geo', 'map')
  .registerVariable('metadata', 'map')
  .registerVariable('signals', 'map')
  .registerFunction('velocity(string, string, string): double', (dimension: string, aggregate: string, window: string) => {
    const value = current!.features[`${dimension}_${aggregate}_${window}`]
    if (value === undefined) throw new Error(`velocity(${dimension}, ${aggregate}, ${window}) is not available for this request`)
    return value
  })
  .registerFunction('in_list(string, dyn): bool', (list: string, value: unknown) =>
    typeof value === 'string' && current!.lists[list]?.has(value) === true)

function positionOf (expression: string, offset: number) {
  const before = expression.slice(0, offset)
  const lines = before.split('\n')
  return { offset, line: lines.length, column: lines[lines.length - 1]!.length + 1 }
}

interface AstNode { op: string, args: unknown, pos?: number, start?: number }

/** velocity() arguments must be literals naming a supported dimension, aggregate and window. */
function checkVelocityCalls (node: unknown, expression: string): void {
  if (node === null || typeof node !== 'object') return
  if (Array.isArray(node)) { for (const n of node) checkVelocityCalls(n, expression); return }
  const n = node as AstNode
  if (n.op === 'call' && Array.isArray(n.args) && n.args[0] === 'velocity') {
    const values = (n.args[1] as AstNode[]).map(a => a.op === 'value' ? a.args : undefined)
    const [dimension, aggregate, window] = values
    const allowed: Array<[unknown, readonly string[], string]> = [[dimension, VELOCITY_DIMENSIONS, 'dimension'], [aggregate, VELOCITY_AGGREGATES, 'aggregate'], [window, VELOCITY_WINDOWS, 'window']]
    for (const [value, set, what] of allowed) {
      if (typeof value !== 'string' || !set.includes(value)) {
        throw new RuleSyntaxError(`velocity() ${what} must be one of ${set.map(s => `"${s}"`).join(', ')}`, positionOf(expression, n.pos ?? n.start ?? 0))
      }
    }
    if (aggregate === 'amount' && (dimension !== 'user' || window !== '24h')) {
      throw new RuleSyntaxError('velocity() amount is available for "user" over "24h"', positionOf(expression, n.pos ?? n.start ?? 0))
    }
  }
  for (const value of Object.values(n)) if (typeof value === 'object') checkVelocityCalls(value, expression)
}

/** Parses and type-checks an expression; throws RuleSyntaxError naming the position of the problem. */
export function compileRule (expression: string): CompiledRule {
  let program: ((context: object) => unknown) & { ast: unknown }
  try {
    program = environment.parse(expression) as typeof program
    const checked = environment.check(expression) as { valid: boolean, type?: string, error?: Error }
    if (!checked.valid) throw checked.error!
    if (checked.type !== 'bool' && checked.type !== 'dyn') throw new RuleSyntaxError(`a rule expression must be a bool, this one is ${checked.type ?? 'unknown'}`, positionOf(expression, 0))
  } catch (err) {
    if (err instanceof RuleSyntaxError) throw err
    if (err instanceof ParseError || err instanceof CelTypeError) {
      const range = (err as unknown as { range?: { start: number } }).range
      const summary = (err as unknown as { summary?: string }).summary ?? err.message
      throw new RuleSyntaxError(summary, positionOf(expression, range?.start ?? 0))
    }
    throw err
  }
  checkVelocityCalls(program.ast, expression)
  return {
    expression,
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
