import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { PRIOR } from '../../src/domain/model/model.js'
import { ModelRegistry } from '../../src/stream/views/model-registry.js'
import { BatchWrites } from '../../src/stream/batch-writes.js'
import { ipReputationKey, IpReputationIndex, simSwapKey } from '../../src/stores/signals.js'
import { openStateDb } from '../../src/stores/state-db.js'
import { tempDir } from '../support/app.js'

const scope = { tenant: 'ten_r', mode: 'test' as const }

describe('in-memory views rebuilt from local state at start', () => {
  it('restores each tenant\'s active model (latest by training) and keeps every version readable', async () => {
    const dir = path.join(tempDir(), 'state')
    let state = await openStateDb(dir)
    const registry = await ModelRegistry.load(state)
    const writes = new BatchWrites(state)
    for (const n of [1, 2]) registry.apply({ tenant_id: scope.tenant, mode: scope.mode, model: { ...PRIOR, version: `v${n}` }, trained: n * 10, trained_through_ms: n, created_ms: n }, writes)
    await state.committer.commit(writes.ops())
    await state.close()
    state = await openStateDb(dir)
    const reloaded = await ModelRegistry.load(state)
    expect(reloaded.model(scope).version).toBe('v2')
    expect(reloaded.model({ ...scope, mode: 'live' }).version).toBe(PRIOR.version)
    expect((await reloaded.version(scope, 'v1'))?.version).toBe('v1')
    await state.close()
  })

  it('restores the IP reputation lists and ignores other signals', async () => {
    const dir = path.join(tempDir(), 'state')
    let state = await openStateDb(dir)
    await state.committer.commit([
      { type: 'put', key: ipReputationKey(scope, '198.51.100.0/24'), value: Buffer.from(JSON.stringify({ score: 0.8, at_ms: 1 })) },
      { type: 'put', key: simSwapKey(scope, 'u1'), value: Buffer.from(JSON.stringify({ confidence: 0.9, at_ms: 1 })) }
    ])
    await state.close()
    state = await openStateDb(dir)
    const index = await IpReputationIndex.load(state)
    expect(index.lookup(scope, '198.51.100.20')).toBe(0.8)
    expect(index.lookup(scope, '198.51.101.20')).toBeUndefined()
    expect(index.lookup({ ...scope, mode: 'live' }, '198.51.100.20')).toBeUndefined()
    await state.close()
  })
})
