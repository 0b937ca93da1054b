import { describe, expect, it } from 'vitest'
import type { Features } from '../../src/domain/decision/types.js'
import { DEFAULT_TRAINING, predictLogit, train, type Forest } from '../../src/domain/model/gbdt.js'
import { INPUT_SCHEMAS } from '../../src/domain/model/input-schemas.js'
import { INPUT_SET, inputSet, LINEAR_INPUTS, MODEL_INPUTS, namesOf, TREE_INPUTS, UnknownModelInputError, valuesOf, type InputDefinition, type InputSet } from '../../src/domain/model/inputs.js'
import { alignLearner, learn, newLearner, snapshot, type LearnerState } from '../../src/domain/model/learner.js'
import { compileModel, PRIOR, scoreCompiled, scoreFeatures, type TreeModel } from '../../src/domain/model/model.js'
import { forestOver, namedForest, storedValues } from '../../src/domain/model/stored-inputs.js'

let seed = 3
const random = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff }
const count = (most: number) => Math.floor(random() * most)

/** Features as decisions record them, with `user_count_3h` (what the added input reads) among them. */
const decisions: Features[] = Array.from({ length: 600 }, (_, i) => ({
  amount: Math.round(random() * 3000 * 100) / 100, user_present: 1, device_present: 1, device_known: i % 3 === 0 ? 0 : 1,
  user_count_1h: count(4), user_count_3h: count(8), user_count_24h: count(10), user_count_30d: count(40), user_sum_30d: random() * 5000,
  ip_count_1h: count(20), ip_reputation_v3: i % 7 === 0 ? random() : 0, email_disposable: i % 11 === 0 ? 1 : 0,
  merchant_count_7d: count(300), merchant_count_30d: 300 + count(900), 'label.merchant_count_30d': count(9), amount_z: random() * 6 - 2,
  geo_mismatch: i % 13 === 0 ? 1 : 0, sim_swap_confidence: i % 17 === 0 ? random() : 0, hour_of_day: i % 24
}))
const labels = decisions.map(f => (f.amount! > 2000 || f.email_disposable === 1) && random() < 0.8 ? 1 : 0)
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T

/** The inputs of schema version 1 (the table's rows it names): what the code computed when it was the last. */
const V1 = INPUT_SCHEMAS[0]!
const V1_SET = inputSet(MODEL_INPUTS.filter(d => V1.linear.includes(d.name) || V1.trees.includes(d.name)), [V1])
const NEXT = INPUT_SCHEMAS.length + 1

/**
 * What stores written by the code of schema version 1 hold, in the format stored before names and versions
 * were: a learner state without `inputs`, rows of bare arrays, a bare forest.
 */
function storedByV1 () {
  const state = newLearner(PRIOR, 0, V1_SET.linear)
  const rows = decisions.map(f => ({ x: Array.from(valuesOf(V1_SET.linear, f)), z: Array.from(valuesOf(V1_SET.trees, f)) }))
  rows.forEach((r, i) => learn(state, r.x, labels[i] as 0 | 1, i, V1_SET.linear))
  const forest = train({ columns: V1_SET.trees.map((_, c) => Float64Array.from(rows, r => r.z[c]!)), labels: Uint8Array.from(labels), weights: new Float64Array(rows.length).fill(1) }, { ...DEFAULT_TRAINING, trees: 40 })
  const { inputs: _names, ...unnamed } = clone(state)
  const trees: TreeModel = { kind: 'trees', version: 'trees-1', inputs: V1_SET.trees.map(i => i.name), forest }
  return { learner: unnamed as LearnerState, rows: clone(rows), forest: clone(forest) as Forest, linear: snapshot(state, V1_SET.linear), trees }
}

/** The table with `added` before the row named `before`, and the schema version freezing its lists. */
function withInput (added: InputDefinition, before: string): InputSet {
  const at = MODEL_INPUTS.findIndex(d => d.name === before)
  const table = [...MODEL_INPUTS.slice(0, at), added, ...MODEL_INPUTS.slice(at)]
  return inputSet(table, [...INPUT_SCHEMAS, { version: NEXT, ...namesOf(table) }])
}

const place = (inputs: readonly { name: string }[], name: string) => inputs.findIndex(i => i.name === name)
/** A learner's weights by input name. */
const byName = (s: LearnerState, inputs: readonly { name: string }[]) => Object.fromEntries(inputs.map((input, i) => [input.name, s.weights[i]!]))

const logit = (s: LearnerState, x: ArrayLike<number>) => s.weights.reduce((z, w, i) => z + w * x[i]!, s.bias)

describe('model inputs: one table, stored by name', () => {
  it('the table gives each model today\'s inputs in today\'s order, frozen as the last schema version', () => {
    expect(INPUT_SET.version).toBe(INPUT_SCHEMAS.length)
    expect(LINEAR_INPUTS.map(i => i.name)).toEqual(INPUT_SCHEMAS.at(-1)!.linear)
    expect(TREE_INPUTS.map(i => i.name)).toEqual(INPUT_SCHEMAS.at(-1)!.trees)
    expect(LINEAR_INPUTS.every(i => i.bound! > 0)).toBe(true)
    expect(TREE_INPUTS.every(i => i.bound === undefined)).toBe(true)
    // an input both models use is defined once
    const both = MODEL_INPUTS.filter(d => d.use === 'both').map(d => d.name)
    expect(both).toEqual(['ip_reputation_v3', 'new_device', 'email_disposable', 'email_free', 'geo_mismatch', 'consistent_geo', 'sim_swap_confidence',
      'failed_user_24h', 'failed_ip_1h', 'failed_ip24_1h', 'ip_new_to_user', 'updates_24h', 'merchant_new_to_user', 'inflow_senders_30d',
      'device_cards_24h', 'user_frauds_30d', 'inflow_frauds_30d', 'device_frauds_30d'])
  })

  it('refuses a table whose lists no schema version freezes, naming the entry to append', () => {
    const table = [...MODEL_INPUTS, { name: 'user_3h', use: 'linear', signal: 'velocity', value: (f: Features) => f.user_count_3h ?? 0, bound: 1 } as const]
    expect(() => inputSet(table, INPUT_SCHEMAS)).toThrow(new RegExp(`model inputs changed: freeze the new lists as the next input schema, \\{"version":${NEXT},"linear":\\[.*"user_3h"\\]`))
    expect(() => inputSet([...MODEL_INPUTS, { ...MODEL_INPUTS[0]! }], INPUT_SCHEMAS)).toThrow(/user_1h twice among the linear model's inputs/)
    expect(() => inputSet(MODEL_INPUTS.map(d => d.name === 'sim_swap' ? { ...d, bound: undefined } : d), INPUT_SCHEMAS)).toThrow(/sim_swap needs a bound/)
  })

  it('an input added in the middle of both lists: old models and rows score (and learn) exactly as before', () => {
    const added: InputDefinition = { name: 'user_3h', use: 'both', signal: 'velocity', value: f => Math.log1p(Math.max(0, f.user_count_3h ?? 0)), bound: 12 }
    const extended = withInput(added, 'ip_reputation_v3')
    expect(extended.version).toBe(NEXT)
    // in the middle of each list, every input after it one place further
    const x3h = place(extended.linear, 'user_3h')
    const z3h = place(extended.trees, 'user_3h')
    expect(x3h).toBe(place(LINEAR_INPUTS, 'ip_reputation_v3'))
    expect(z3h).toBe(place(TREE_INPUTS, 'ip_reputation_v3'))
    expect(extended.linear[x3h + 1]!.name).toBe('ip_reputation_v3')
    // stored by the code of version 1, before every input versions 2.. added (the prior's of version 2 among them)
    const old = storedByV1()
    const isV1 = (name: string) => V1.linear.includes(name)

    // the learner state (positional, no names): mapped by name, every input added since at weight 0
    const learner = alignLearner(clone(old.learner), extended)
    expect(learner.inputs).toEqual(extended.linear.map(i => i.name))
    const weights = byName(learner, extended.linear)
    expect(weights.user_3h).toBe(0)
    for (const input of extended.linear) expect(weights[input.name]).toBe(isV1(input.name) ? old.learner.weights[V1.linear.indexOf(input.name)] : 0)
    const before = alignLearner(clone(old.learner))
    // published linear versions (by name) and the learner's next one, and the trees (names of v1), over the extended inputs
    const linear = compileModel(old.linear, extended)
    const next = compileModel(snapshot(learner, extended.linear), extended)
    const trees = compileModel(old.trees, extended)
    for (const f of decisions) {
      expect(scoreCompiled(f, linear)).toEqual(scoreFeatures(f, old.linear))
      expect(scoreCompiled(f, next)).toEqual(scoreFeatures(f, snapshot(before)))
      expect(scoreCompiled(f, trees)).toEqual(scoreFeatures(f, old.trees))
    }

    // rows (bare arrays, version 1): read by name, the added inputs at their defaults; the old forest splits on
    // inputs after the added one, which its splits now index one place further
    expect(old.forest.trees.some(t => t.feature.some(f => f >= z3h))).toBe(true)
    const forest = forestOver(namedForest(old.forest, extended), extended.trees, 'trees-1')
    expect(forest.trees.some(t => t.feature.some(f => f === z3h))).toBe(false)
    for (const row of old.rows) {
      const x = storedValues(row.x, undefined, 'linear', extended)
      const z = storedValues(row.z, undefined, 'trees', extended)
      expect(x[x3h]).toBe(0)
      expect(z[z3h]).toBe(0)
      expect(logit(learner, x)).toBeCloseTo(logit(before, storedValues(row.x, undefined, 'linear')), 12)
      expect(predictLogit(forest, z)).toBe(predictLogit(old.forest, row.z))
    }
    // and learning from old rows moves the old inputs' weights exactly as before; the added ones, never seen, stay 0
    old.rows.slice(0, 100).forEach((row, i) => {
      learn(before, storedValues(row.x, undefined, 'linear'), labels[i] as 0 | 1, i)
      learn(learner, storedValues(row.x, undefined, 'linear', extended), labels[i] as 0 | 1, i, extended.linear)
    })
    const learned = byName(learner, extended.linear)
    const beforeLearned = byName(before, LINEAR_INPUTS)
    for (const input of extended.linear) expect(learned[input.name]).toBe(input.name === 'user_3h' ? 0 : beforeLearned[input.name])
    expect(learner.bias).toBe(before.bias)
  })

  it('rows of the current version are read as they are; a version this code does not know is an error', () => {
    const x = [1, 2, 3]
    expect(storedValues(x, INPUT_SET.version, 'linear')).toBe(x)
    expect(() => storedValues(x, 9, 'linear')).toThrow(/input schema version 9, which this code does not know/)
  })

  it('a model naming an input the code does not have is refused, never scored with its weights or splits moved', () => {
    const old = storedByV1()
    expect(() => compileModel({ ...old.linear, weights: { ...old.linear.weights, user_3h: 0.4 } })).toThrow(UnknownModelInputError)
    expect(() => compileModel({ ...old.trees, inputs: [...old.trees.inputs.slice(0, 5), 'user_3h', ...old.trees.inputs.slice(6)] })).toThrow(/model trees-1 names model inputs this code does not have: user_3h/)
    expect(() => scoreFeatures(decisions[0]!, { ...PRIOR, version: 'p2', weights: { gone: 1 } })).toThrow(/model p2 names model inputs this code does not have: gone/)
    // code without an input (removed from the middle): the stored learner and forest that name it are refused;
    // rows are data, their column of it is dropped by name
    const table = MODEL_INPUTS.filter(d => d.name !== 'new_device')
    const reduced = inputSet(table, [...INPUT_SCHEMAS, { version: NEXT, ...namesOf(table) }])
    expect(() => alignLearner(clone(old.learner), reduced, 'the learner state of ten_1/test')).toThrow(/the learner state of ten_1\/test names model inputs this code does not have: new_device/)
    expect(() => forestOver(namedForest(old.forest, reduced), reduced.trees, 'trees-1')).toThrow(UnknownModelInputError)
    expect(() => compileModel(old.linear, reduced)).toThrow(UnknownModelInputError)
    const row = old.rows[0]!
    const v1Kept = V1.linear.filter(name => name !== 'new_device')
    expect(storedValues(row.x, undefined, 'linear', reduced)).toEqual(reduced.linear.map(i => v1Kept.includes(i.name) ? row.x[V1.linear.indexOf(i.name)] : 0))
  })
})
