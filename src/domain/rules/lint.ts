import { nodesOf, type CelNode } from './ast.js'

/**
 * What a rule's author most likely got wrong, found before the rule is saved or validated (never when a stored
 * ruleset is loaded: a rule saved before a check existed keeps working). The CEL type checker sees `request` as a
 * map, so by itself it accepts a field that a request never has, a comparison that is never true, and a list
 * that does not exist; each would make a rule that silently never matches.
 */

/** The fields of `request` in a rule (the score request's named fields; its own keys are under `custom`). */
export const REQUEST_FIELDS: Readonly<Record<string, 'string' | 'number'>> = {
  event: 'string', amount: 'number', currency: 'string', user_id: 'string', device_id: 'string', ip: 'string', email: 'string', event_time: 'number'
}

export interface LintContext {
  /** The aliases of the tenant's value lists. */
  lists: ReadonlySet<string>
}

export interface LintProblem { message: string, offset: number }

const COMPARISONS = new Set(['==', '!=', '<', '<=', '>', '>='])

/** `request.<field>`: the field's name, or undefined for any other node. */
function requestField (n: CelNode): string | undefined {
  if (n.op !== '.' || !Array.isArray(n.args)) return undefined
  const [target, field] = n.args as [CelNode, unknown]
  return target?.op === 'id' && target.args === 'request' && typeof field === 'string' ? field : undefined
}

/**
 * The closest known name within two edits, for "did you mean". Names whose lengths differ by more than two are
 * skipped before any distance is computed, so a long literal against a tenant's many lists costs little.
 */
function closest (name: string, known: Iterable<string>): string | undefined {
  let best: { name: string, distance: number } | undefined
  for (const k of known) {
    if (Math.abs(name.length - k.length) > 2) continue
    const d = editDistance(name, k)
    if (d <= 2 && (best === undefined || d < best.distance)) best = { name: k, distance: d }
  }
  return best?.name
}

function editDistance (a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    previous = row
  }
  return previous[b.length]!
}

const literalType = (n: CelNode): 'string' | 'number' | undefined =>
  n.op !== 'value' ? undefined : typeof n.args === 'string' ? 'string' : typeof n.args === 'number' || typeof n.args === 'bigint' ? 'number' : undefined

/** The first mistake of the expression's AST, with where it starts; undefined when none is found. Pure. */
export function lintRule (ast: unknown, context: LintContext): LintProblem | undefined {
  const say = (message: string, n: CelNode): LintProblem => ({ message, offset: n.start ?? 0 })
  for (const n of nodesOf(ast)) {
    const field = requestField(n)
    if (field !== undefined && REQUEST_FIELDS[field] === undefined) {
      const guess = closest(field, Object.keys(REQUEST_FIELDS))
      return say(`request has no field '${field}'${guess === undefined ? '' : ` (did you mean '${guess}'?)`}; its fields are ${Object.keys(REQUEST_FIELDS).join(', ')}, and a request's own keys are under custom`, n)
    }
    if (COMPARISONS.has(n.op) && Array.isArray(n.args)) {
      const [left, right] = n.args as [CelNode, CelNode]
      for (const [side, other] of [[left, right], [right, left]] as const) {
        const f = side === undefined ? undefined : requestField(side)
        const expected = f === undefined ? undefined : REQUEST_FIELDS[f]
        const given = other === undefined ? undefined : literalType(other)
        if (expected !== undefined && given !== undefined && expected !== given) {
          return say(`request.${f!} is a ${expected}, compared here with a ${given}: the comparison is never true${expected === 'number' ? ` (write ${String(other!.args)} without quotes)` : ''}`, n)
        }
      }
    }
    if (n.op === 'call' && Array.isArray(n.args) && n.args[0] === 'in_list') {
      const first = (n.args[1] as CelNode[] | undefined)?.[0]
      if (first?.op === 'value' && typeof first.args === 'string' && !context.lists.has(first.args)) {
        const guess = closest(first.args, context.lists)
        return say(`no value list is named '${first.args}'${guess === undefined ? '' : ` (did you mean '${guess}'?)`}; create it first (POST /v1/lists)`, first)
      }
    }
  }
  return undefined
}
