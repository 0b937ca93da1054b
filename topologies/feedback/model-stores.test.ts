import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { INPUT_SCHEMAS } from '../../src/domain/model/input-schemas.js'
import { INPUT_SET, inputSet, inputValues, LINEAR_INPUTS, MODEL_INPUTS, TREE_INPUTS, treeValues, UnknownModelInputError, valuesOf } from '../../src/domain/model/inputs.js'
import { newLearner } from '../../src/domain/model/learner.js'
import { PRIOR } from '../../src/domain/model/model.js'
import { openStateDb, type StateDb } from '../../src/stores/state-db.js'
import { BatchWrites } from '../../src/stream/batch-writes.js'
import { LEARNERS, readLearner, scanLearners, writeLearner } from './learner-store.js'
import { readRow, ROWS, writeRow } from './row-store.js'
import { FORESTS, readForest, TRAINING_INDEX, trainingRows, writeTrainingRow } from './tree-store.js'
import { tempDir } from '../../test/support/app.js'

const scope = { tenant: 'ten_ms', mode: 'test' as const }
const features = { amount: 420, user_present: 1, device_present: 1, user_count_1h: 3, email_disposable: 1, hour_of_day: 3 }
/** The inputs of schema version 1: what the code computed when stores held bare arrays. */
const V1 = INPUT_SCHEMAS[0]!
const V1_SET = inputSet(MODEL_INPUTS.filter(d => V1.linear.includes(d.name) || V1.trees.includes(d.name)), [V1])
let state: StateDb

beforeAll(async () => { state = await openStateDb(tempDir('fds-model-stores-')) })
afterAll(async () => { await state.close() })

const put = (key: Buffer, value: unknown) => state.committer.commit([{ type: 'put', key, value: Buffer.from(JSON.stringify(value)) }])

describe('feedback stores: models and rows by input name', () => {
  it('reads what was stored before names and versions (arrays by position) as schema version 1, and stores names and versions from now on', async () => {
    const { inputs: _names, ...unnamed } = newLearner(PRIOR, 0, V1_SET.linear)
    await put(LEARNERS.key(scope.tenant, scope.mode), unnamed)
    const x = Array.from(valuesOf(V1_SET.linear, features))
    const z = Array.from(valuesOf(V1_SET.trees, features))
    await put(ROWS.key(scope.tenant, scope.mode, 'trc_old'), { t: 5, x, z, learned: 1 })
    await put(TRAINING_INDEX.key(scope.tenant, scope.mode, '5'.padStart(15, '0'), 'trc_old'), { z, y: 1, w: 1 })
    const forest = { base: -1, trees: [{ feature: [0, -1, -1], threshold: [100, 0, 0], left: [1, -1, -1], right: [2, -1, -1], value: [0, -1, 1] }] }
    await put(FORESTS.key(scope.tenant, scope.mode, 'trees-1'), forest)

    const writes = new BatchWrites(state)
    const learner = await readLearner(writes, scope)
    expect(learner?.inputs).toEqual(LINEAR_INPUTS.map(i => i.name))
    // by name: the inputs of version 1 keep their weights and values, those added since read 0
    const at = (name: string) => V1.linear.indexOf(name)
    expect(learner?.weights).toEqual(LINEAR_INPUTS.map(i => at(i.name) < 0 ? 0 : unnamed.weights[at(i.name)]))
    const atTree = (name: string) => V1.trees.indexOf(name)
    const zNow = TREE_INPUTS.map(i => atTree(i.name) < 0 ? 0 : z[atTree(i.name)])
    expect((await readRow(writes, scope, 'trc_old'))).toMatchObject({ x: LINEAR_INPUTS.map(i => at(i.name) < 0 ? 0 : x[at(i.name)]), z: zNow, learned: 1 })
    expect(await trainingRows(state, scope, 0, 10)).toEqual([{ z: zNow, y: 1, w: 1, v: INPUT_SET.version }])
    // a forest stored without names was trained on version 1's list: it keeps splitting on those inputs
    expect(await readForest(state, scope, 'trees-1')).toEqual({ inputs: V1.trees, forest })

    writeLearner(writes, scope, learner!)
    writeRow(writes, scope, 'trc_new', { t: 6, x: Array.from(inputValues(features)), z: Array.from(treeValues(features)) })
    writeTrainingRow(writes, scope, 6, 'trc_new', { z, y: 0, w: 10, s: 0.0123 })
    await state.committer.commit(writes.ops())
    // the served score is kept; a row stored before has none
    expect((await trainingRows(state, scope, 0, 10)).map(r => r.s)).toEqual([undefined, 0.0123])
    const raw = async (key: Buffer) => JSON.parse((await state.get(key))!.toString()) as Record<string, unknown>
    expect((await raw(LEARNERS.key(scope.tenant, scope.mode))).inputs).toEqual(LINEAR_INPUTS.map(i => i.name))
    expect((await raw(ROWS.key(scope.tenant, scope.mode, 'trc_new'))).v).toBe(INPUT_SET.version)
    expect((await raw(TRAINING_INDEX.key(scope.tenant, scope.mode, '6'.padStart(15, '0'), 'trc_new'))).v).toBe(INPUT_SET.version)
  })

  it('refuses a learner state naming an input the code does not have, loudly, rather than moving its weights', async () => {
    const other = { tenant: 'ten_ms2', mode: 'live' as const }
    const s = newLearner(PRIOR)
    await put(LEARNERS.key(other.tenant, other.mode), { ...s, inputs: [...s.inputs!.slice(0, 3), 'user_3h', ...s.inputs!.slice(3)], weights: [...s.weights.slice(0, 3), 0.5, ...s.weights.slice(3)], squares: [...s.squares, 1] })
    await expect(readLearner(new BatchWrites(state), other)).rejects.toThrow(UnknownModelInputError)
    await expect(readLearner(new BatchWrites(state), other)).rejects.toThrow(/the learner state of ten_ms2\/live names model inputs this code does not have: user_3h/)
    // publishing goes on for the other scopes; the refused one is reported
    const refused: unknown[] = []
    const scanned: string[] = []
    for await (const { scope: s } of scanLearners(state, (s, err) => refused.push([s.tenant, err]))) scanned.push(s.tenant)
    expect(scanned).toEqual([scope.tenant])
    expect(refused).toEqual([[other.tenant, expect.any(UnknownModelInputError)]])
  })
})
