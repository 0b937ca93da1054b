/**
 * The static cost of a rule expression: an upper bound, computed once when the rule is compiled, on the work one
 * evaluation may do for ANY request the API accepts. A rule over RULE_COST.limit is refused when it is saved,
 * validated or backtested (docs/rules.md, "Cost"), so no tenant can write a rule that takes seconds per request.
 *
 * The bound walks the parsed CEL expression and keeps, for every sub-expression, what its value may hold (a
 * Shape: how many items, how many characters) and what evaluating it may cost (Work: steps, and errors created,
 * which are far dearer than steps). Request input is bounded by the API's input limits (INPUT below, the numbers
 * of src/services/input-limits.ts and the named fields' bounds of docs/scoring.md): a comprehension (all, exists,
 * exists_one, map, filter) over request input iterates at most INPUT.items times, nested ones multiply.
 *
 * Units: one step is one CEL node evaluated (~20 ns); a string operation costs one step per 64 characters it
 * reads; matches() one step per 2 (character x RE2 instruction), the worst case of RE2's NFA; an error created
 * (and absorbed by `||`, `&&`, exists or all) costs ERROR_UNITS steps. bench/rule-isolation.ts measures the
 * ratio of time to units on the hostile rules. The same units meter a request's rules as they run (budget.ts):
 * each comprehension iteration is charged its estimate, each matches() its (characters x instructions).
 */
import type { CelNode } from './ast.js'

/** The documented bound on one rule, and the weights of the estimate. */
export const RULE_COST = {
  /** Units one rule may cost at most (about 2 ms of the reference machine in the worst case). */
  limit: 250_000,
  /** An error created during evaluation (cel-js builds its message and position): ~100 steps. */
  errorUnits: 100,
  /** Characters a string operation reads per step. */
  charsPerUnit: 64,
  /** Character x instruction products of RE2 matching per step. */
  regexProductsPerUnit: 2
} as const

/**
 * What request input may hold, from the API's input limits: any collection at most `items` (arrays hold 100
 * items; objects, the request's 1,000 keys in all), any string `chars` characters; all strings of one request
 * together at most `requestChars` (its 64 KiB), all collection items at most `requestItems`.
 */
export const INPUT = { items: 1000, chars: 8192, requestChars: 65_536, requestItems: 32_768, keyChars: 128 } as const

/** Characters of the named request fields (docs/scoring.md, "Score request bounds"). */
const NAMED_CHARS: Record<string, number> = { event: 64, currency: 3, user_id: 256, device_id: 256, email: 320, ip: 45, amount: 24, event_time: 24 }

/** What a value may hold: items when iterated, characters when a string; its elements and fields. */
interface Shape {
  items: number
  chars: number
  element?: Shape
  field?: Shape
  /** Fields with their own bounds (the named request fields). */
  named?: Record<string, Shape>
}

const SCALAR: Shape = { items: 0, chars: 24 }
/**
 * One element of request input met while iterating over it: the elements of a collection share the request's
 * bytes, so over all iterations they hold at most requestChars characters and requestItems items. Charging each
 * element its share keeps the bound linear in the request, as the work is.
 */
const SHARE: Shape = { items: Math.ceil(INPUT.requestItems / INPUT.items), chars: Math.ceil(INPUT.requestChars / INPUT.items) }
SHARE.element = SHARE
SHARE.field = SHARE
/** Any value of request input read by name or index: as large as the limits allow. */
const FULL: Shape = { items: INPUT.items, chars: INPUT.chars, element: SHARE }
FULL.field = FULL
const KEY: Shape = { items: 0, chars: INPUT.keyChars }

const VARIABLES: Record<string, Shape> = {
  request: { items: 16, chars: 0, element: KEY, field: FULL, named: Object.fromEntries(Object.entries(NAMED_CHARS).map(([k, chars]) => [k, { items: 0, chars }])) },
  custom: { items: 100, chars: 0, element: KEY, field: FULL },
  geo: { items: 20, chars: 0, element: KEY, field: FULL },
  metadata: { items: 50, chars: 0, element: KEY, field: FULL },
  signals: { items: 16, chars: 0, element: KEY, field: SCALAR }
}

/** The work of one evaluation of a sub-expression. */
interface Work {
  steps: number
  /** Errors created and absorbed inside it (by ||, &&, exists, all). */
  absorbed: number
  /** Whether it may end in an error (one more created). */
  raises: boolean
}

const unitsOf = (w: Work) => w.steps + RULE_COST.errorUnits * (w.absorbed + (w.raises ? 1 : 0))

/** The cel-js AST as the parser gives it (lib/index.d.ts, ASTNode). */

const isNode = (v: unknown): v is CelNode => v !== null && typeof v === 'object' && !Array.isArray(v) && typeof (v as CelNode).op === 'string'

const COMPREHENSIONS = new Set(['all', 'exists', 'exists_one', 'map', 'filter'])
/** Comprehensions that carry on after an error in their predicate (CEL's commutative error semantics). */
const ABSORBING = new Set(['all', 'exists'])
/** String methods that read their receiver and argument once and give a string of at most the receiver's length. */
const STRING_TO_STRING = new Set(['lowerAscii', 'upperAscii', 'trim', 'substring', 'replace', 'charAt', 'reverse', 'quote'])
const STRING_SCANS = new Set(['contains', 'startsWith', 'endsWith', 'indexOf', 'lastIndexOf'])
const CONVERSIONS = new Set(['int', 'uint', 'double', 'string', 'bool', 'bytes', 'dyn', 'type', 'timestamp', 'duration'])

export interface CostEstimate {
  /** Units of the whole expression. */
  units: number
  /** Units of one iteration of each comprehension (its predicate or transform, errors included), by its node. */
  iterationUnits: ReadonlyMap<CelNode, number>
  /** When over RULE_COST.limit: the smallest part that is, where it starts, and why. */
  over?: { offset: number, message: string }
}

interface Walked { shape: Shape, work: Work }

const fmt = (n: number) => Number.isFinite(n) ? Math.ceil(n).toLocaleString('en-US') : 'unbounded'

/**
 * Estimates the cost of a parsed (and type-checked) expression. `instructionsOf` gives the RE2 program size of a
 * matches() pattern literal (language.ts compiles them; a non-literal pattern is refused before this runs).
 */
export function estimateCost (root: CelNode, instructionsOf: (pattern: string) => number): CostEstimate {
  const units = new Map<CelNode, number>()
  const iterationUnits = new Map<CelNode, number>()
  const children = new Map<CelNode, CelNode[]>()
  const why = new Map<CelNode, string>()

  const scan = (s: Shape) => s.chars / RULE_COST.charsPerUnit

  function walk (node: CelNode, scope: ReadonlyMap<string, Shape>): Walked {
    const kids: CelNode[] = []
    const sub = (n: unknown, s = scope): Walked => {
      if (!isNode(n)) return { shape: SCALAR, work: { steps: 0, absorbed: 0, raises: false } }
      kids.push(n)
      return walk(n, s)
    }
    const result = visit(node, scope, sub)
    children.set(node, kids)
    units.set(node, unitsOf(result.work))
    return result
  }

  /** An ordinary operation over `parts`: evaluated in turn, the first error ends it. */
  const ordinary = (parts: Walked[], steps: number, shape: Shape, raises = true): Walked => ({
    shape,
    work: {
      steps: steps + parts.reduce((n, p) => n + p.work.steps, 0),
      absorbed: parts.reduce((n, p) => n + p.work.absorbed, 0),
      raises: raises || parts.some(p => p.work.raises)
    }
  })

  function visit (node: CelNode, scope: ReadonlyMap<string, Shape>, sub: (n: unknown, s?: ReadonlyMap<string, Shape>) => Walked): Walked {
    const args = node.args
    switch (node.op) {
      case 'value': {
        const chars = typeof args === 'string' ? args.length : args instanceof Uint8Array ? args.length : SCALAR.chars
        return { shape: { items: 0, chars }, work: { steps: 1, absorbed: 0, raises: false } }
      }
      case 'id': {
        const name = args as string
        return { shape: scope.get(name) ?? VARIABLES[name] ?? SCALAR, work: { steps: 1, absorbed: 0, raises: false } }
      }
      case '.': case '.?': {
        const [target, name] = args as [CelNode, string]
        const t = sub(target)
        return ordinary([t], 1, t.shape.named?.[name] ?? t.shape.field ?? t.shape.element ?? FULL)
      }
      case '[]': case '[?]': {
        const [target, index] = args as [CelNode, CelNode]
        const t = sub(target)
        const i = sub(index)
        return ordinary([t, i], 1 + scan(i.shape), widest(t.shape.field ?? FULL, t.shape.element ?? FULL))
      }
      case '&&': case '||': {
        const [l, r] = (args as CelNode[]).map(n => sub(n))
        const raising = (l!.work.raises ? 1 : 0) + (r!.work.raises ? 1 : 0)
        // Both sides run even when one fails; at most one error leaves, the others are absorbed.
        return { shape: SCALAR, work: { steps: 1 + l!.work.steps + r!.work.steps, absorbed: l!.work.absorbed + r!.work.absorbed + Math.max(1, raising) - 1, raises: true } }
      }
      case '!_': case '-_': return ordinary([sub(args)], 1, SCALAR)
      case '?:': {
        const [c, l, r] = (args as CelNode[]).map(n => sub(n))
        const branch = unitsOf(l!.work) >= unitsOf(r!.work) ? l! : r!
        return { shape: widest(l!.shape, r!.shape), work: { steps: 1 + c!.work.steps + branch.work.steps, absorbed: c!.work.absorbed + branch.work.absorbed, raises: true } }
      }
      case 'list': {
        const items = (args as CelNode[]).map(n => sub(n))
        return ordinary(items, 1, { items: items.length, chars: 0, element: items.reduce<Shape>((s, i) => widest(s, i.shape), { items: 0, chars: 0 }) }, false)
      }
      case 'map': {
        const entries = (args as Array<[CelNode, CelNode]>).map(([k, v]) => [sub(k), sub(v)] as const)
        const keys = entries.reduce<Shape>((s, [k]) => widest(s, k.shape), { items: 0, chars: 0 })
        const values = entries.reduce<Shape>((s, [, v]) => widest(s, v.shape), { items: 0, chars: 0 })
        return ordinary(entries.flat(), 1, { items: entries.length, chars: 0, element: keys, field: values }, false)
      }
      case '+': {
        const [l, r] = (args as CelNode[]).map(n => sub(n))
        const shape = { items: l!.shape.items + r!.shape.items, chars: l!.shape.chars + r!.shape.chars, element: widest(l!.shape.element ?? SCALAR, r!.shape.element ?? SCALAR) }
        return ordinary([l!, r!], 1 + scan(shape) + shape.items, shape)
      }
      case '==': case '!=': {
        const [l, r] = (args as CelNode[]).map(n => sub(n))
        const least = { items: Math.min(l!.shape.items, r!.shape.items), chars: Math.min(l!.shape.chars, r!.shape.chars) }
        return ordinary([l!, r!], 1 + scan(least) + least.items, SCALAR, false)
      }
      case 'in': {
        const [l, r] = (args as CelNode[]).map(n => sub(n))
        return ordinary([l!, r!], 1 + r!.shape.items * (1 + scan(l!.shape)), SCALAR)
      }
      case '<': case '<=': case '>': case '>=': {
        const [l, r] = (args as CelNode[]).map(n => sub(n))
        return ordinary([l!, r!], 1 + scan({ items: 0, chars: Math.min(l!.shape.chars, r!.shape.chars) }), SCALAR)
      }
      case 'call': {
        const [name, callArgs] = args as [string, CelNode[]]
        const parts = callArgs.map(n => sub(n))
        const first = parts[0]?.shape ?? SCALAR
        if (name === 'has' || name === 'size' || name === 'velocity' || name === 'velocity_distinct') return ordinary(parts, 1, SCALAR)
        if (name === 'in_list') return ordinary(parts, 1 + scan(parts[1]?.shape ?? SCALAR), SCALAR)
        if (CONVERSIONS.has(name)) return ordinary(parts, 1 + scan(first) + first.items, name === 'string' ? { items: 0, chars: Math.max(first.chars, SCALAR.chars) } : first)
        return ordinary(parts, 1 + parts.reduce((n, p) => n + scan(p.shape) + p.shape.items, 0), FULL)
      }
      case 'rcall': return method(node, scope, sub)
      default: {
        // Arithmetic (- * / %) and anything this walk does not name: one step plus reading its operands.
        const parts = (Array.isArray(args) ? args : [args]).map(n => sub(n))
        return ordinary(parts, 1 + parts.reduce((n, p) => n + scan(p.shape), 0), SCALAR)
      }
    }
  }

  function method (node: CelNode, scope: ReadonlyMap<string, Shape>, sub: (n: unknown, s?: ReadonlyMap<string, Shape>) => Walked): Walked {
    const [name, receiver, callArgs] = node.args as [string, CelNode, CelNode[]]
    if (name === 'bind' && receiver.op === 'id' && receiver.args === 'cel') {
      const [variable, value, body] = callArgs as [CelNode, CelNode, CelNode]
      const v = sub(value)
      const b = sub(body, new Map(scope).set(variable.args as string, v.shape))
      return ordinary([v, b], 1, b.shape, false)
    }
    if (COMPREHENSIONS.has(name) && callArgs[0]?.op === 'id') {
      const r = sub(receiver)
      const element = r.shape.element ?? FULL
      const inner = new Map(scope).set(callArgs[0].args as string, element)
      const body = callArgs.slice(1).map(n => sub(n, inner))
      const each: Work = { steps: 1 + body.reduce((n, b) => n + b.work.steps, 0), absorbed: body.reduce((n, b) => n + b.work.absorbed, 0), raises: body.some(b => b.work.raises) }
      const perItemErrors = each.absorbed + (ABSORBING.has(name) && each.raises ? 1 : 0)
      const n = r.shape.items
      iterationUnits.set(node, Math.ceil(each.steps + RULE_COST.errorUnits * perItemErrors))
      why.set(node, `${name}() over up to ${fmt(n)} items, each costing up to ${fmt(unitsOf(each))} units`)
      const shape: Shape = name === 'map' ? { items: n, chars: 0, element: body[body.length - 1]!.shape } : name === 'filter' ? { items: n, chars: 0, element } : SCALAR
      return { shape, work: { steps: 1 + r.work.steps + n * each.steps, absorbed: r.work.absorbed + n * perItemErrors, raises: true } }
    }
    const r = sub(receiver)
    const parts = callArgs.map(n => sub(n))
    const s = r.shape
    if (name === 'matches') {
      const pattern = callArgs[0]?.op === 'value' && typeof callArgs[0].args === 'string' ? callArgs[0].args : undefined
      const instructions = pattern === undefined ? Infinity : instructionsOf(pattern)
      why.set(node, `matches() of a pattern of ${fmt(instructions)} RE2 instructions over up to ${fmt(s.chars)} characters`)
      return ordinary([r, ...parts], 1 + (s.chars + 1) * instructions / RULE_COST.regexProductsPerUnit, SCALAR)
    }
    const argChars = parts.reduce((n, p) => n + scan(p.shape), 0)
    if (name === 'size') return ordinary([r, ...parts], 1, SCALAR)
    if (STRING_SCANS.has(name)) return ordinary([r, ...parts], 1 + scan(s) + argChars, SCALAR)
    if (STRING_TO_STRING.has(name)) return ordinary([r, ...parts], 1 + scan(s) + argChars, { items: 0, chars: s.chars + parts.reduce((n, p) => n + p.shape.chars, 0) })
    if (name === 'split') return ordinary([r, ...parts], 1 + scan(s) + argChars + s.chars, { items: s.chars + 1, chars: 0, element: { items: 0, chars: s.chars } })
    if (name === 'join') {
      const chars = s.items * ((s.element ?? FULL).chars + (parts[0]?.shape.chars ?? 0))
      return ordinary([r, ...parts], 1 + chars / RULE_COST.charsPerUnit + s.items, { items: 0, chars })
    }
    // Anything else (bytes, timestamps, durations, methods this walk does not name): reads its receiver and arguments.
    return ordinary([r, ...parts], 1 + scan(s) + s.items + argChars, FULL)
  }

  const total = walk(root, new Map())
  const estimate: CostEstimate = { units: Math.ceil(unitsOf(total.work)), iterationUnits }
  if (!(estimate.units <= RULE_COST.limit)) {
    // The smallest part over the bound: follow the dearest child while it is over too.
    let at = root
    for (;;) {
      const next = (children.get(at) ?? []).reduce<CelNode | undefined>((best, c) => best === undefined || units.get(c)! > units.get(best)! ? c : best, undefined)
      if (next === undefined || !(units.get(next)! > RULE_COST.limit)) break
      at = next
    }
    const cost = units.get(at)!
    const what = why.get(at) ?? 'this expression'
    estimate.over = { offset: at.start, message: `${what}: estimated cost ${fmt(cost)} units exceeds the limit of ${fmt(RULE_COST.limit)} units per rule (docs/rules.md, "Cost")` }
  }
  return estimate
}

/** A shape holding either: the larger of each bound (elements and fields too, two levels down). */
function widest (a: Shape, b: Shape, depth = 0): Shape {
  if (a === b) return a
  if (depth > 2) return FULL
  const element = a.element === undefined ? b.element : b.element === undefined ? a.element : widest(a.element, b.element, depth + 1)
  const field = a.field === undefined ? b.field : b.field === undefined ? a.field : widest(a.field, b.field, depth + 1)
  return { items: Math.max(a.items, b.items), chars: Math.max(a.chars, b.chars), element, field }
}
