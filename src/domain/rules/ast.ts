/** A node of a parsed CEL expression, as cel-js gives it: an operator, its arguments, where it stands. */
export interface CelNode { op: string, args: unknown, start: number, end: number }

/** Every node of a parsed expression, depth first (through `args` only: checked nodes refer to their types). */
export function * nodesOf (node: unknown): Generator<CelNode> {
  if (node === null || typeof node !== 'object') return
  if (Array.isArray(node)) { for (const n of node) yield * nodesOf(n); return }
  const n = node as CelNode
  if (typeof n.op !== 'string') return
  yield n
  yield * nodesOf(n.args)
}
