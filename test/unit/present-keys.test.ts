import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { openStateDb } from '../../src/stores/state-db.js'
import { PresentKeys } from '../../src/stores/present-keys.js'
import { stateKey, TAG } from '../../src/stores/keys.js'
import { tempDir } from '../support/app.js'

describe('present keys', () => {
  it('knows the keys of its tags stored before it opened and put through the committer since; nothing else', async () => {
    const dir = path.join(tempDir(), 'state')
    const state = await openStateDb(dir)
    const before = stateKey(TAG.override, 't', 'test', 'user', 'u1')
    await state.committer.commit([{ type: 'put', key: before, value: Buffer.from('[]') }])
    const index = await PresentKeys.open(state, [TAG.override, TAG.caseGate])
    const gate = stateKey(TAG.caseGate, 't', 'test', 'device', 'd1')
    const other = stateKey(TAG.deviceSeen, 't', 'test', 'd1')
    expect([index.mayExist(before.toString()), index.mayExist(gate.toString())]).toEqual([true, false])
    await state.committer.commit([{ type: 'put', key: gate, value: Buffer.from('[]') }, { type: 'put', key: other, value: Buffer.from('1') }])
    expect([index.mayExist(gate.toString()), index.mayExist(other.toString())]).toEqual([true, false])
    expect(index.mayExist(stateKey(TAG.override, 't', 'live', 'user', 'u1').toString())).toBe(false)
    // A value with a lone surrogate has no UTF-8 form of its own: always read.
    expect(index.mayExist(`${stateKey(TAG.override, 't', 'test', 'user', '').toString()}\uD800`)).toBe(true)
    await state.close()
  })
})
