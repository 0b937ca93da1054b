import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { scoreFeatures } from '../../src/domain/model/model.js'
import { TREE_INPUTS } from '../../src/domain/model/inputs.js'
import { modelRecord } from '../../src/domain/records/models.js'
import { auth, eventually, LIVE_KEY, startTestApp } from '../support/app.js'

let app: App
const NOW = Date.parse('2026-11-23T12:00:00Z')
/** The service's clock: labels mature by when the service recorded a decision, so the test moves it. */
let now = NOW
const DAY = 86_400_000
const call = (method: 'GET' | 'POST', url: string, payload?: object, key?: string) => app.server.inject({ method, url, headers: auth(key), payload })
const score = async (body: object) => {
  const res = await call('POST', '/v1/score', body)
  expect(res.statusCode).toBe(200)
  return res.json()
}
const recorded = async (traceId: string) => (await call('GET', `/v1/transactions/${traceId}`)).json()

beforeAll(async () => {
  app = await startTestApp({
    MODEL_PUBLISH_INTERVAL_MS: '100', LABEL_MATURITY_DAYS: '2', MODEL_MIN_FRAUDS: '10', MODEL_TRAINING_DAYS: '10', MODEL_NEGATIVE_SAMPLE_PERCENT: '50'
  }, { clock: () => now })
})
afterAll(async () => { await app.close() })

describe('gradient-boosted trees from dispositions', () => {
  it('are trained off the request path once enough frauds matured, replace the linear model, and explain with risk-raising signals only', async () => {
    const at = (daysAgo: number, hour: number) => {
      now = NOW - daysAgo * DAY + hour * 3_600_000 // the service records them then (an event_time alone would make them late)
      return Math.floor(now / 1000)
    }
    let n = 0
    for (let day = 12; day >= 3; day--) {
      for (let i = 0; i < 16; i++) await score({ event: 'payment', amount: 20 + (i * 7) % 50, user_id: `u${n++}`, terminal_id: `t${i % 4}`, event_time: at(day, i % 12) })
      for (let i = 0; i < 2; i++) {
        const fraud = await score({ event: 'payment', amount: 600 + i * 150, user_id: `u${n++}`, terminal_id: `t${i}`, event_time: at(day, 3 + i) })
        const c = (await call('POST', '/v1/cases', { trace_id: fraud.trace_id, reason: 'chargeback' })).json()
        expect((await call('POST', `/v1/cases/${c.id}/disposition`, { outcome: 'fraud', analyst: 'ana' })).statusCode).toBe(200)
      }
    }
    await score({ event: 'payment', amount: 30, user_id: 'u-watermark', event_time: at(0, 0) }) // the maturity horizon passes day 3
    const settings = await eventually(async () => {
      const s = (await call('GET', '/v1/risk_settings')).json()
      return /^trees-\d+$/.test(s.model.version) ? s : undefined
    }, 20000, 'trees')
    const version = settings.model.version as string
    expect(settings.model.rolled_back).toBeNull()
    expect(settings).toHaveProperty('challenger') // later trees in shadow: test/unit/tree-trainer.test.ts

    const high = await score({ event: 'payment', amount: 700, user_id: 'u-new-high', terminal_id: 't3' })
    const low = await score({ event: 'payment', amount: 35, user_id: 'u-new-low', terminal_id: 't3' })
    expect(high.score).toBeGreaterThan(0.5)
    expect(low.score).toBeLessThan(0.2)
    expect(high.signals).toContain('high_amount')
    expect(low.signals).not.toContain('high_amount')
    // the stored decision re-evaluates to its score with the version it recorded
    const stored = await recorded(high.trace_id)
    expect(stored.evaluation.model_version).toBe(version)
    const model = await app.modelRegistry.version({ tenant: app.identity.defaultTenant, mode: 'test' }, version)
    expect(scoreFeatures(stored.evaluation.features, model!).score).toBe(high.score)
    // the live mode learned nothing
    expect((await call('GET', '/v1/risk_settings', undefined, LIVE_KEY)).json().model.version).not.toMatch(/^trees/)
  })

  it('show a rollback in the risk settings: the version it came back from and why', async () => {
    const scope = { tenant: app.identity.defaultTenant, mode: 'test' as const }
    const trees = (version: string) => ({ kind: 'trees' as const, version, inputs: TREE_INPUTS.map(i => i.name), forest: { base: -2, trees: [] } })
    const record = { tenant_id: scope.tenant, mode: scope.mode, trained: 1, trained_through_ms: NOW, created_ms: NOW }
    await app.log.append(app.topics.models, [modelRecord({ ...record, model: trees('trees-98'), rollback: true, rolled_back: { from: 'trees-99', reason: 'quality' } })])
    const model = await eventually(async () => {
      const m = (await call('GET', '/v1/risk_settings')).json().model
      return m.version === 'trees-98' ? m : undefined
    }, 20000, 'the rollback active')
    expect(model.rolled_back).toEqual({ from: 'trees-99', reason: 'quality' })
  })
})
