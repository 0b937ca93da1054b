import type { Forest } from './gbdt.js'
import { UNVERSIONED } from './input-schemas.js'
import { INPUT_SET, UnknownModelInputError, type InputSet, type ModelInput, type ModelKind } from './inputs.js'

/**
 * Reading what was stored with other input lists, by name, into the current ones: row values by the schema
 * version they carry, forests by the names they carry. Positions are worked out once per stored list (cached),
 * never per value.
 */

/** For each input of `to`, its position in `from`, or -1 when `from` lacks it. */
function positions (from: readonly string[], to: readonly ModelInput[]): Int32Array {
  const at = new Map(from.map((name, i) => [name, i]))
  return Int32Array.from(to, input => at.get(input.name) ?? -1)
}

const rowPositions = new WeakMap<InputSet, Map<string, Int32Array>>()

/**
 * Values a row stored in the order of schema `version`'s `kind` list (no version: 1), as values of the current
 * list of `set`: by name, an input the row lacks at its default, a stored input no longer used dropped. The
 * same array when the row is of the current version. A version this code does not know (a row written by newer
 * code) is an error.
 */
export function storedValues (values: number[], version: number | undefined, kind: ModelKind, set: InputSet = INPUT_SET): number[] {
  const v = version ?? UNVERSIONED
  if (v === set.version) return values
  let cached = rowPositions.get(set)
  if (cached === undefined) rowPositions.set(set, cached = new Map())
  const id = `${v}:${kind}`
  let at = cached.get(id)
  if (at === undefined) {
    const schema = set.schemas.get(v)
    if (schema === undefined) throw new Error(`a row stored with input schema version ${v}, which this code does not know (it knows 1 to ${set.version})`)
    cached.set(id, at = positions(schema[kind], set[kind]))
  }
  const inputs = set[kind]
  const out = new Array<number>(at.length)
  for (let i = 0; i < at.length; i++) out[i] = at[i]! < 0 ? inputs[i]!.default : values[at[i]!] ?? inputs[i]!.default
  return out
}

/** A forest with the names of the inputs its splits index (`feature` i is inputs[i]). */
export interface NamedForest { inputs: string[], forest: Forest }

/** A stored forest: named, or a bare one stored before forests carried names (made with schema version 1's trees). */
export function namedForest (stored: NamedForest | Forest, set: InputSet = INPUT_SET): NamedForest {
  return 'forest' in stored ? stored : { inputs: [...set.schemas.get(UNVERSIONED)!.trees], forest: stored }
}

/**
 * The forest with its splits indexing `to` instead of its own inputs, so that it scores rows of the current
 * list exactly as it scored its own. Refuses (UnknownModelInputError) a forest naming an input `to` lacks.
 */
export function forestOver ({ inputs, forest }: NamedForest, to: readonly ModelInput[], model: string): Forest {
  const at = new Map(to.map((input, i) => [input.name, i]))
  const unknown = inputs.filter(name => !at.has(name))
  if (unknown.length > 0) throw new UnknownModelInputError(model, unknown)
  if (inputs.length === to.length && inputs.every((name, i) => at.get(name) === i)) return forest
  const index = inputs.map(name => at.get(name)!)
  return { base: forest.base, trees: forest.trees.map(t => ({ ...t, feature: t.feature.map(f => f < 0 ? f : index[f]!) })) }
}
