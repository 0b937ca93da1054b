import { describe, expect, it } from 'vitest'
import type { Features } from '../../src/domain/decision/types.js'
import { DEFAULT_TRAINING, predictLogit, train, type Forest } from '../../src/domain/model/gbdt.js'
import { INPUT_SCHEMAS } from '../../src/domain/model/input-schemas.js'
import { INPUT_SET, inputSet, inputValues, LINEAR_INPUTS, MODEL_INPUTS, namesOf, TREE_INPUTS, treeValues, UnknownModelInputError, type InputDefinition, type InputSet } from '../../src/domain/model/inputs.js'
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

/**
 * What the stores hold today, made by this code with today's inputs (schema version 1), in the format stored
 * before names and versions were: a learner state without `inputs`, rows of bare arrays, a bare forest.
 */
function storedToday () {
  const state = newLearner(PRIOR)
  const rows = decisions.map(f => ({ x: Array.from(inputValues(f)), z: Array.from(treeValues(f)) }))
  rows.forEach((r, i) => learn(state, r.x, labels[i] as 0 | 1, i))
  const forest = train({ columns: TREE_INPUTS.map((_, c) => Float64Array.from(rows, r => r.z[c]!)), labels: Uint8Array.from(labels), weights: new Float64Array(rows.length).fill(1) }, { ...DEFAULT_TRAINING, trees: 40 })
  const { inputs: _names, ...unnamed } = clone(state)
  const trees: TreeModel = { kind: 'trees', version: 'trees-1', inputs: TREE_INPUTS.map(i => i.name), forest }
  return { learner: unnamed as LearnerState, rows: clone(rows), forest: clone(forest) as Forest, linear: snapshot(state), trees }
}

/** The table with `added` before the row named `before`, and the schema version freezing its lists. */
function withInput (added: InputDefinition, before: string): InputSet {
  const at = MODEL_INPUTS.findIndex(d => d.name === before)
  const table = [...MODEL_INPUTS.slice(0, at), added, ...MODEL_INPUTS.slice(at)]
  return inputSet(table, [...INPUT_SCHEMAS, { version: 2, ...namesOf(table) }])
}

const logit = (s: LearnerState, x: ArrayLike<number>) => s.weights.reduce((z, w, i) => z + w * x[i]!, s.bias)

describe('model inputs: one table, stored by name', () => {
  it('the table gives each model today\'s inputs in today\'s order, frozen as schema version 1', () => {
    expect(INPUT_SET.version).toBe(1)
    expect(LINEAR_INPUTS.map(i => i.name)).toEqual(INPUT_SCHEMAS[0]!.linear)
    expect(TREE_INPUTS.map(i => i.name)).toEqual(INPUT_SCHEMAS[0]!.trees)
    expect(LINEAR_INPUTS.every(i => i.bound! > 0)).toBe(true)
    expect(TREE_INPUTS.every(i => i.bound === undefined)).toBe(true)
    // an input both models use is defined once
    const both = MODEL_INPUTS.filter(d => d.use === 'both').map(d => d.name)
    expect(both).toEqual(['ip_reputation_v3', 'new_device', 'email_disposable', 'email_free', 'geo_mismatch', 'consistent_geo', 'sim_swap_confidence'])
  })

  it('refuses a table whose lists no schema version freezes, naming the entry to append', () => {
    const table = [...MODEL_INPUTS, { name: 'user_3h', use: 'linear', signal: 'velocity', value: (f: Features) => f.user_count_3h ?? 0, bound: 1 } as const]
    expect(() => inputSet(table, INPUT_SCHEMAS)).toThrow(/model inputs changed: freeze the new lists as the next input schema, \{"version":2,"linear":\[.*"user_3h"\]/)
    expect(() => inputSet([...MODEL_INPUTS, { ...MODEL_INPUTS[0]! }], INPUT_SCHEMAS)).toThrow(/user_1h twice among the linear model's inputs/)
    expect(() => inputSet(MODEL_INPUTS.map(d => d.name === 'sim_swap' ? { ...d, bound: undefined } : d), INPUT_SCHEMAS)).toThrow(/sim_swap needs a bound/)
  })

  it('an input added in the middle of both lists: old models and rows score (and learn) exactly as before', () => {
    const added: InputDefinition = { name: 'user_3h', use: 'both', signal: 'velocity', value: f => Math.log1p(Math.max(0, f.user_count_3h ?? 0)), bound: 12 }
    const extended = withInput(added, 'ip_reputation_v3')
    expect(extended.version).toBe(2)
    // in the middle of each list, every input after it one place further
    expect(extended.linear.map(i => i.name).indexOf('user_3h')).toBe(10)
    expect(extended.trees.map(i => i.name).indexOf('user_3h')).toBe(34)
    expect(extended.linear[11]!.name).toBe(LINEAR_INPUTS[10]!.name)
    const old = storedToday()

    // the learner state (positional, no names): mapped by name, the added input at weight 0
    const learner = alignLearner(clone(old.learner), extended)
    expect(learner.inputs).toEqual(extended.linear.map(i => i.name))
    expect(learner.weights[10]).toBe(0)
    expect(learner.weights.filter((_, i) => i !== 10)).toEqual(old.learner.weights)
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

    // rows (bare arrays, version 1): read by name, the added input at its default; the old forest splits on
    // inputs after the added one, which its splits now index one place further
    expect(old.forest.trees.some(t => t.feature.some(f => f >= 34))).toBe(true)
    const forest = forestOver(namedForest(old.forest, extended), extended.trees, 'trees-1')
    expect(forest.trees.some(t => t.feature.some(f => f === 34))).toBe(false)
    for (const row of old.rows) {
      const x = storedValues(row.x, undefined, 'linear', extended)
      const z = storedValues(row.z, undefined, 'trees', extended)
      expect(x[10]).toBe(0)
      expect(z[34]).toBe(0)
      expect(logit(learner, x)).toBe(logit(before, row.x))
      expect(predictLogit(forest, z)).toBe(predictLogit(old.forest, row.z))
    }
    // and learning from old rows moves the old inputs' weights exactly as before; the added one, never seen, stays 0
    old.rows.slice(0, 100).forEach((row, i) => {
      learn(before, row.x, labels[i] as 0 | 1, i)
      learn(learner, storedValues(row.x, undefined, 'linear', extended), labels[i] as 0 | 1, i, extended.linear)
    })
    expect(learner.weights.filter((_, i) => i !== 10)).toEqual(before.weights)
    expect(learner.weights[10]).toBe(0)
    expect(learner.bias).toBe(before.bias)
  })

  it('rows of the current version are read as they are; a version this code does not know is an error', () => {
    const x = [1, 2, 3]
    expect(storedValues(x, 1, 'linear')).toBe(x)
    expect(() => storedValues(x, 9, 'linear')).toThrow(/input schema version 9, which this code does not know/)
  })

  it('a model naming an input the code does not have is refused, never scored with its weights or splits moved', () => {
    const old = storedToday()
    expect(() => compileModel({ ...old.linear, weights: { ...old.linear.weights, user_3h: 0.4 } })).toThrow(UnknownModelInputError)
    expect(() => compileModel({ ...old.trees, inputs: [...old.trees.inputs.slice(0, 5), 'user_3h', ...old.trees.inputs.slice(6)] })).toThrow(/model trees-1 names model inputs this code does not have: user_3h/)
    expect(() => scoreFeatures(decisions[0]!, { ...PRIOR, version: 'p2', weights: { gone: 1 } })).toThrow(/model p2 names model inputs this code does not have: gone/)
    // code without an input (removed from the middle): the stored learner and forest that name it are refused;
    // rows are data, their column of it is dropped by name
    const table = MODEL_INPUTS.filter(d => d.name !== 'new_device')
    const reduced = inputSet(table, [...INPUT_SCHEMAS, { version: 2, ...namesOf(table) }])
    expect(() => alignLearner(clone(old.learner), reduced, 'the learner state of ten_1/test')).toThrow(/the learner state of ten_1\/test names model inputs this code does not have: new_device/)
    expect(() => forestOver(namedForest(old.forest, reduced), reduced.trees, 'trees-1')).toThrow(UnknownModelInputError)
    expect(() => compileModel(old.linear, reduced)).toThrow(UnknownModelInputError)
    const row = old.rows[0]!
    expect(storedValues(row.x, undefined, 'linear', reduced)).toEqual(row.x.filter((_, i) => LINEAR_INPUTS[i]!.name !== 'new_device'))
  })
})
