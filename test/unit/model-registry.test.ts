import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PRIOR, type ScoringModel } from '../../src/domain/model/model.js'
import type { ModelRecord } from '../../src/domain/records/models.js'
import { scopeId } from '../../src/domain/scope.js'
import { stateKey, TAG } from '../../src/stores/keys.js'
import { openStateDb, type StateDb } from '../../src/stores/state-db.js'
import { BatchWrites } from '../../src/stream/batch-writes.js'
import { PipelineHealth } from '../../src/stream/health.js'
import { ModelRegistry } from '../../src/stream/views/model-registry.js'
import { tempDir } from '../support/app.js'

const scope = { tenant: 'ten_mr', mode: 'test' as const }
const record = (model: ScoringModel, trained: number): ModelRecord => ({ tenant_id: scope.tenant, mode: scope.mode, model, trained, trained_through_ms: trained, created_ms: trained })
/** A linear version naming an input this code does not have (made by code with more inputs). */
const unknown = (version: string) => ({ ...PRIOR, version, weights: { ...PRIOR.weights, user_3h: 0.7 } })

let state: StateDb
beforeAll(async () => { state = await openStateDb(tempDir('fds-registry-')) })
afterAll(async () => { await state.close() })

function reporting () {
  const errors: Array<{ o: object, msg: string }> = []
  const health = new PipelineHealth()
  return { errors, health, report: { logger: { error: (o: object, msg: string) => { errors.push({ o, msg }) } }, health } }
}

describe('model registry: a model naming an input the code does not have', () => {
  it('is refused as it arrives: logged, /healthz failing, the tenant keeps scoring with its model; a valid one clears it', async () => {
    const { errors, health, report } = reporting()
    const registry = await ModelRegistry.load(state, report)
    const writes = new BatchWrites(state)
    registry.apply(record({ ...PRIOR, version: 'v1' }, 1), writes)
    registry.apply(record(unknown('v2'), 2), writes)
    expect(registry.model(scope).version).toBe('v1')
    expect(errors).toHaveLength(1)
    expect(errors[0]!.msg).toMatch(/model refused/)
    expect(health.report().status).toBe('degraded')
    expect(health.report().failing[0]).toMatchObject({ component: 'model-registry', error: expect.stringMatching(/model v2 names model inputs this code does not have: user_3h/) })
    registry.apply(record({ ...PRIOR, version: 'v3' }, 3), writes)
    await state.committer.commit(writes.ops())
    expect(registry.model(scope).version).toBe('v3')
    expect(health.report().status).toBe('ok')
  })

  it('is refused at start when the store holds it as active (written by code with more inputs): the PRIOR scores instead', async () => {
    const other = { tenant: 'ten_mr2', mode: 'live' as const }
    await state.committer.commit([{ type: 'put', key: stateKey(TAG.model, 'active', other.tenant, other.mode), value: Buffer.from(JSON.stringify({ ...record(unknown('v9'), 9), tenant_id: other.tenant, mode: other.mode })) }])
    const { errors, health, report } = reporting()
    const registry = await ModelRegistry.load(state, report)
    expect(registry.model(other).version).toBe(PRIOR.version)
    expect(registry.model(scope).version).toBe('v3')
    expect(errors).toHaveLength(1)
    expect(registry.refusals().get(scopeId(other))).toMatch(/v9 names model inputs this code does not have: user_3h/)
    expect(health.report().failing.map(f => f.component)).toEqual(['model-registry'])
  })
})
