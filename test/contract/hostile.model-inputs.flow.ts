import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { PRIOR } from '../../src/domain/model/model.js'
import { modelRecord } from '../../src/domain/records/models.js'
import { auth, eventually, TEST_KEY } from '../support/app.js'

/**
 * Issue 34 item 2 on one transport: a model version on the `models` topic naming an input this code does not
 * have (published by code with more inputs, or forged) is refused where it would be loaded: the tenant keeps
 * scoring with the model it had, /healthz reports the refusal, and a valid version after it is taken as usual.
 * Before, its weights of unknown names were silently dropped (trees: their inputs read 0) and it scored.
 */
export function hostileModelInputsSuite (transport: string, start: () => Promise<App>): void {
  describe(`hostile model inputs: ${transport}`, () => {
    let app: App
    beforeAll(async () => { app = await start() })
    afterAll(async () => { await app?.close() })

    const call = async (method: 'GET' | 'POST', url: string, payload?: object) => await app.server.inject({ method, url, headers: auth(TEST_KEY), payload })
    let n = 0
    /** The same profile each time: a new user on a new device (no velocity of the calls before). */
    const scored = async () => {
      n++
      return (await call('POST', '/v1/score', { event: 'payment', amount: 120, user_id: `mi-u${n}`, device_id: `mi-d${n}`, email: `mi${n}@example.com` })).json() as { score: number }
    }
    const modelVersion = async () => (await call('GET', '/v1/risk_settings')).json().model.version as string
    const publish = async (model: object) => {
      await app.log.append(app.topics.models, [modelRecord({ tenant_id: app.identity.defaultTenant, mode: 'test', model: model as typeof PRIOR, trained: 1, trained_through_ms: 1, created_ms: Date.now() })])
    }

    it('a version naming an unknown input is refused loudly and never scores; a valid one after it is applied', async () => {
      const before = await scored()
      expect(await modelVersion()).toBe(PRIOR.version)
      // certain fraud by the unknown input's weight, were it read by position or its bias taken alone
      await publish({ ...PRIOR, version: 'forged-1', bias: 9, weights: { ...PRIOR.weights, user_3h: 5 } })
      await eventually(() => app.health.report().failing.some(f => f.component === 'model-registry') || undefined, 20_000, 'the refusal reported')
      const failure = app.health.report().failing.find(f => f.component === 'model-registry')!
      expect(failure.error).toMatch(/model forged-1 names model inputs this code does not have: user_3h/)
      expect((await call('GET', '/healthz')).json().status).toBe('degraded')
      expect(await modelVersion()).toBe(PRIOR.version)
      expect((await scored()).score).toBe(before.score)
      await publish({ kind: 'trees', version: 'forged-2', inputs: ['amount', 'user_3h'], forest: { base: 9, trees: [] } })
      await publish({ ...PRIOR, version: 'valid-3', bias: PRIOR.bias - 1 })
      await eventually(async () => await modelVersion() === 'valid-3' || undefined, 20_000, 'the valid version applied')
      expect(app.health.report().failing.some(f => f.component === 'model-registry')).toBe(false)
      expect((await scored()).score).toBeLessThan(before.score)
    })
  })
}
