import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { auth, eventually, settled, startTestApp } from '../support/app.js'

let app: App
const NOW = Date.parse('2026-11-23T12:00:00Z')
/** The service's clock: labels mature by when the service recorded a decision, so the test moves it. */
let now = NOW
const DAY = 86_400_000
const call = (method: 'GET' | 'POST', url: string, payload?: object) => app.server.inject({ method, url, headers: auth(), payload })
const score = async (body: object) => {
  const res = await call('POST', '/v1/score', body)
  expect(res.statusCode).toBe(200)
  return res.json()
}
const rollout = async (pack: string) => (await call('GET', `/v1/rules/rollout/${pack}`)).json()
const stopped = (pack: string) => eventually(async () => {
  const r = await rollout(pack)
  return r.status === 'stopped' ? r : undefined
}, 20000, `${pack} stopped`)

beforeAll(async () => { app = await startTestApp({ LABEL_MATURITY_DAYS: '2', MODEL_PUBLISH_INTERVAL_MS: '100' }, { clock: () => now }) })
afterAll(async () => { await app.close() })

describe('rollouts that stop themselves', () => {
  it('validates stop conditions and shows them', async () => {
    await call('POST', '/v1/rules', { id: 'any_login', name: 'Any login', expression: 'request.event == "login"', action: 'flag', mode: 'shadow' })
    const bad = await call('POST', '/v1/rules/rollout', { pack: 'p', rule_ids: ['any_login'], percentage: 10, stop_conditions: { max_hit_rate: 2 } })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().error).toMatchObject({ code: 'parameter_invalid' })
    expect((await call('POST', '/v1/rules/rollout', { pack: 'p', rule_ids: ['any_login'], percentage: 10, stop_conditions: {} })).statusCode).toBe(400)
    expect((await call('POST', '/v1/rules/rollout', { pack: 'p', rule_ids: ['any_login'], percentage: 10, stop_conditions: { hit_rate: 0.1 } })).json().error).toMatchObject({ code: 'parameter_unknown' })
    expect((await call('POST', '/v1/rules', { id: 'rollout', name: 'x', expression: 'true', action: 'flag' })).json().error).toMatchObject({ code: 'parameter_invalid', param: 'id' })
    expect((await call('GET', '/v1/rules/rollout/nope')).statusCode).toBe(404)
  })

  it('stops a pack whose precision on matured labels falls below its minimum, and keeps a precise one', async () => {
    const at = (daysAgo: number, i: number) => {
      now = NOW - daysAgo * DAY + i * 60_000 // the service records them then (an event_time alone would make them late)
      return Math.floor(now / 1000)
    }
    await call('POST', '/v1/rules', { id: 'big_payment', name: 'Big payment', expression: 'request.event == "payment" && request.amount > 500.0', action: 'flag', mode: 'shadow' })
    await call('POST', '/v1/rules', { id: 'huge_payout', name: 'Huge payout', expression: 'request.event == "payout" && request.amount > 5000.0', action: 'flag', mode: 'shadow' })
    const conditions = { min_precision: 0.5, min_matured_hits: 6 }
    expect((await call('POST', '/v1/rules/rollout', { pack: 'vague', rule_ids: ['big_payment'], percentage: 100, stop_conditions: conditions })).statusCode).toBe(200)
    expect((await call('POST', '/v1/rules/rollout', { pack: 'precise', rule_ids: ['huge_payout'], percentage: 100, stop_conditions: conditions })).statusCode).toBe(200)
    const fraud = async (traceId: string) => {
      const c = (await call('POST', '/v1/cases', { trace_id: traceId, reason: 'chargeback' })).json()
      expect((await call('POST', `/v1/cases/${c.id}/disposition`, { outcome: 'fraud', analyst: 'ana' })).statusCode).toBe(200)
    }
    for (let i = 0; i < 6; i++) {
      const d = await score({ event: 'payment', amount: 900, user_id: `vague_${i}`, event_time: at(5, i) })
      expect(d.shadow.rules).toEqual(['big_payment'])
      if (i < 2) await fraud(d.trace_id) // 2 of 6: precision 0.33
      const p = await score({ event: 'payout', amount: 9000, user_id: `precise_${i}`, event_time: at(5, i) })
      expect(p.shadow.rules).toEqual(['huge_payout'])
      if (i < 5) await fraud(p.trace_id) // 5 of 6: precision 0.83
    }
    expect((await rollout('vague')).status).toBe('running') // nothing matured yet
    // the feedback topology holds the 7 labels on their rows before the horizon passes
    await settled(app)
    await score({ event: 'payment', amount: 10, user_id: 'watermark', event_time: at(0, 0) }) // 5 days on: the maturity horizon passes them
    const r = await stopped('vague')
    expect(r.stopped).toMatchObject({ reason: 'precision', decisions: 13, hits: 6, matured_hits: 6, matured_frauds: 2, precision: 0.3333, hit_rate: 0.4615 })
    expect((await rollout('precise')).status).toBe('running')
  })

  it('stops a pack whose hit rate crosses its maximum: its rules stop running, and the stop is audited', async () => {
    const created = await call('POST', '/v1/rules/rollout', { pack: 'noisy', rule_ids: ['any_login'], percentage: 100, stop_conditions: { max_hit_rate: 0.5, min_decisions: 20 } })
    expect(created.json()).toMatchObject({ object: 'rollout', pack: 'noisy', status: 'running', stop_conditions: { max_hit_rate: 0.5, min_decisions: 20 }, stopped: null })
    const runId = created.json().id as string
    expect(runId).toMatch(/^rol_/)
    for (let i = 0; i < 19; i++) expect((await score({ event: 'login', user_id: `noisy_${i}` })).shadow.rules).toContain('any_login')
    expect((await rollout('noisy')).status).toBe('running') // 19 decisions: not judged yet
    await score({ event: 'login', user_id: 'noisy_19' })
    const r = await stopped('noisy')
    expect(r).toMatchObject({ id: runId, percentage: 100, stopped: { reason: 'hit_rate', decisions: 20, hits: 20, hit_rate: 1, precision: null } })
    expect(r.stopped.at).toBe(Math.floor(NOW / 1000))
    expect((await score({ event: 'login', user_id: 'noisy_20' })).shadow?.rules ?? []).not.toContain('any_login')
    expect((await call('GET', '/v1/rules/rollout')).json().data.map((p: { pack: string, status: string }) => [p.pack, p.status])).toContainEqual(['noisy', 'stopped'])
    const audit = (await call('GET', '/v1/audit?object_id=noisy')).json().data
    expect(audit.find((e: { action: string }) => e.action === 'rollout.stopped')).toMatchObject({ actor: 'rollout-guard', object_type: 'rollout', data: { rollout_id: runId, reason: 'hit_rate', hits: 20 } })
    // rolling it out again starts a new run with its own figures
    const again = (await call('POST', '/v1/rules/rollout', { pack: 'noisy', rule_ids: ['any_login'], percentage: 100, stop_conditions: { max_hit_rate: 0.5, min_decisions: 20 } })).json()
    expect(again).toMatchObject({ status: 'running', stopped: null })
    expect(again.id).not.toBe(runId)
  })
})
