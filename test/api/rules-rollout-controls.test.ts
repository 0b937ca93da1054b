import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { storeApiKey } from '../../src/stores/api-keys.js'
import { auth, createTenant, eventually, startTestApp } from '../support/app.js'

let app: App
let other: { keys: { test: string } }
const READ_ONLY = 'sk_test_rulesreadonlykey0000000'
const call = (method: 'GET' | 'POST', url: string, payload?: object, key?: string) =>
  app.server.inject({ method, url, headers: auth(key), ...(payload === undefined ? {} : { payload }) })
const score = async (payload: object) => {
  const res = await call('POST', '/v1/score', payload)
  expect(res.statusCode).toBe(200)
  return res.json()
}
const rule = async (id: string, fields: object = {}) =>
  expect((await call('POST', '/v1/rules', { id, name: id, expression: `request.event == "${id}"`, action: 'flag', ...fields })).statusCode).toBe(200)
const auditOf = (objectId: string, action: string) => eventually(async () =>
  (await call('GET', `/v1/audit?object_id=${objectId}`)).json().data.find((e: { action: string }) => e.action === action), 10000, `${action} audited`)

beforeAll(async () => {
  app = await startTestApp()
  other = await createTenant(app)
  storeApiKey(app.state, READ_ONLY, { id: 'key_rules_ro', name: 'read only', tenant_id: app.identity.defaultTenant, livemode: false, scopes: ['rules:read'], created_ms: 0 })
})
afterAll(async () => { await app.close() })

describe('rolling out rules that decide now', () => {
  it('refuses to move an enforced rule to shadow unless the request says so, naming the rules', async () => {
    await rule('decides_now')
    await rule('decides_too')
    await rule('reports_only', { mode: 'shadow' })
    await rule('switched_off', { status: 'disabled' })
    const refused = await call('POST', '/v1/rules/rollout', { pack: 'mixed', rule_ids: ['reports_only', 'decides_now', 'switched_off', 'decides_too'], percentage: 50 })
    expect(refused.statusCode).toBe(409)
    expect(refused.json().error).toMatchObject({ type: 'invalid_request_error', code: 'rollout_demotes_enforced', param: 'demote_enforced' })
    expect(refused.json().error.message).toContain('decides_now, decides_too')
    expect(refused.json().error.message).not.toContain('switched_off') // a disabled rule decides nothing
    expect((await call('GET', '/v1/rules/decides_now')).json().mode).toBe('enforce')
    expect((await call('GET', '/v1/rules/rollout/mixed')).statusCode).toBe(404)
    expect((await call('POST', '/v1/rules/rollout', { pack: 'mixed', rule_ids: ['decides_now'], percentage: 50, demote_enforced: false })).statusCode).toBe(409)

    // Rules already in shadow (or disabled) need no flag.
    expect((await call('POST', '/v1/rules/rollout', { pack: 'quiet', rule_ids: ['reports_only', 'switched_off'], percentage: 50 })).statusCode).toBe(200)

    const rolled = await call('POST', '/v1/rules/rollout', { pack: 'mixed', rule_ids: ['decides_now', 'decides_too'], percentage: 50, demote_enforced: true })
    expect(rolled.statusCode).toBe(200)
    expect(rolled.json()).toMatchObject({ pack: 'mixed', status: 'running', stopped: null })
    expect((await call('GET', '/v1/rules/decides_now')).json().mode).toBe('shadow')
    const audited = await auditOf('mixed', 'rollout.updated')
    expect(audited).toMatchObject({ object_type: 'rollout', data: { rollout_id: rolled.json().id, demoted: ['decides_now', 'decides_too'], percentage: 50 } })
    // The rule's history shows the rollout that moved it.
    const history = (await call('GET', '/v1/rules/decides_now')).json().history
    expect(history.map((h: { change: string, rule: { mode: string } }) => [h.change, h.rule.mode])).toEqual([['rule.upserted', 'enforce'], ['rollout.updated', 'shadow']])
  })
})

describe('a pack\u2019s hit rate, stop and promotion', () => {
  it('counts the decisions the current run ran for and its hits, over the window of GET /v1/rules/hits', async () => {
    await rule('half_signups', { mode: 'shadow', expression: 'request.event == "signup" && request.amount > 50.0' })
    const run = (await call('POST', '/v1/rules/rollout', { pack: 'signups', rule_ids: ['half_signups'], percentage: 60 })).json()
    let ran = 0
    let hits = 0
    for (let i = 0; i < 40; i++) {
      const d = await score({ event: 'signup', amount: i % 2 === 0 ? 100 : 10, user_id: `hr_${i}` })
      const tx = (await call('GET', `/v1/transactions/${d.trace_id}`)).json()
      if (tx.evaluation.rollout_buckets.signups < 60) {
        ran++
        if (d.shadow?.rules.includes('half_signups') === true) hits++
      }
    }
    expect(ran).toBeGreaterThan(5)
    expect(hits).toBeGreaterThan(0)
    const counted = (await call('GET', '/v1/rules/hits?hours=1')).json()
    expect(counted.packs.signups).toEqual({ rollout_id: run.id, decisions: ran, hits })
    expect(counted.packs.mixed).toMatchObject({ decisions: expect.any(Number), hits: 0 })

    // A new run of the pack starts from zero: the earlier run's decisions are not its own.
    const again = (await call('POST', '/v1/rules/rollout', { pack: 'signups', rule_ids: ['half_signups'], percentage: 60 })).json()
    expect((await call('GET', '/v1/rules/hits?hours=1')).json().packs.signups).toEqual({ rollout_id: again.id, decisions: 0, hits: 0 })
  })

  it('stops a running pack on request: its rules then run for no one; audited; stopping again is refused', async () => {
    await rule('stop_me', { mode: 'shadow' })
    const run = (await call('POST', '/v1/rules/rollout', { pack: 'to_stop', rule_ids: ['stop_me'], percentage: 100 })).json()
    expect((await score({ event: 'stop_me', user_id: 's1' })).shadow.rules).toEqual(['stop_me'])
    const stopped = await call('POST', '/v1/rules/rollout/to_stop/stop')
    expect(stopped.statusCode).toBe(200)
    expect(stopped.json()).toMatchObject({ pack: 'to_stop', id: run.id, status: 'stopped', stopped: { reason: 'stop_requested', actor: expect.stringMatching(/^key_/), at: expect.any(Number) } })
    expect((await call('GET', '/v1/rules/rollout/to_stop')).json().status).toBe('stopped')
    expect((await score({ event: 'stop_me', user_id: 's2' })).shadow?.rules ?? []).not.toContain('stop_me')
    expect(await auditOf('to_stop', 'rollout.stopped')).toMatchObject({ data: { rollout_id: run.id, reason: 'stop_requested' } })
    const twice = await call('POST', '/v1/rules/rollout/to_stop/stop')
    expect(twice.statusCode).toBe(409)
    expect(twice.json().error).toMatchObject({ code: 'invalid_transition', param: 'pack' })
    expect((await call('GET', '/v1/rules/stop_me')).json().mode).toBe('shadow')
  })

  it('promotes a pack: its rules decide for every request, the run ends as promoted, audited and in the rules\u2019 history', async () => {
    await rule('promote_me', { mode: 'shadow', action: 'reject' })
    const run = (await call('POST', '/v1/rules/rollout', { pack: 'to_promote', rule_ids: ['promote_me'], percentage: 10 })).json()
    const promoted = await call('POST', '/v1/rules/rollout/to_promote/promote')
    expect(promoted.statusCode).toBe(200)
    expect(promoted.json()).toMatchObject({ pack: 'to_promote', id: run.id, status: 'stopped', rule_ids: ['promote_me'], stopped: { reason: 'promoted', actor: expect.stringMatching(/^key_/) } })
    expect((await call('GET', '/v1/rules/promote_me')).json().mode).toBe('enforce')
    for (let i = 0; i < 5; i++) expect(await score({ event: 'promote_me', user_id: `p${i}` })).toMatchObject({ action: 'reject', rules: ['promote_me'] })
    expect(await auditOf('to_promote', 'rollout.promoted')).toMatchObject({ object_type: 'rollout', data: { rollout_id: run.id, rule_ids: ['promote_me'] } })
    const history = (await call('GET', '/v1/rules/promote_me')).json().history
    expect(history.map((h: { change: string, rule: { mode: string } }) => [h.change, h.rule.mode])).toEqual([['rule.upserted', 'shadow'], ['rollout.promoted', 'enforce']])
    expect((await call('POST', '/v1/rules/rollout/to_promote/promote')).json().error).toMatchObject({ code: 'invalid_transition' })
    expect((await call('POST', '/v1/rules/rollout/to_promote/stop')).json().error).toMatchObject({ code: 'invalid_transition' })

    // A stopped pack may still be promoted (the guard's judgement is not the last word).
    await rule('late_promotion', { mode: 'shadow' })
    await call('POST', '/v1/rules/rollout', { pack: 'stopped_first', rule_ids: ['late_promotion'], percentage: 5 })
    await call('POST', '/v1/rules/rollout/stopped_first/stop')
    expect((await call('POST', '/v1/rules/rollout/stopped_first/promote')).json()).toMatchObject({ stopped: { reason: 'promoted' } })
    expect((await call('GET', '/v1/rules/late_promotion')).json().mode).toBe('enforce')
  })

  it('needs rules:write, and another tenant\u2019s packs are not found', async () => {
    await rule('guarded_pack_rule', { mode: 'shadow' })
    await call('POST', '/v1/rules/rollout', { pack: 'mine', rule_ids: ['guarded_pack_rule'], percentage: 20 })
    for (const action of ['stop', 'promote']) {
      expect((await call('POST', `/v1/rules/rollout/mine/${action}`, undefined, READ_ONLY)).json().error).toMatchObject({ code: 'insufficient_scope' })
      const theirs = await call('POST', `/v1/rules/rollout/mine/${action}`, undefined, other.keys.test)
      expect(theirs.statusCode).toBe(404)
      expect(theirs.json().error).toMatchObject({ code: 'resource_missing' })
      expect((await call('POST', `/v1/rules/rollout/nope/${action}`)).statusCode).toBe(404)
    }
    expect((await call('GET', '/v1/rules/rollout/mine', undefined, other.keys.test)).statusCode).toBe(404)
    expect((await call('POST', '/v1/rules/rollout', { pack: 'mine', rule_ids: ['guarded_pack_rule'], percentage: 20 }, other.keys.test)).json().error).toMatchObject({ code: 'parameter_invalid', param: 'rule_ids' })
    expect((await call('GET', '/v1/rules/hits', undefined, other.keys.test)).json().packs).toEqual({})
    expect((await call('GET', '/v1/rules/rollout/mine')).json()).toMatchObject({ status: 'running', stopped: null })
    expect((await call('GET', '/v1/rules/guarded_pack_rule')).json().mode).toBe('shadow')
  })
})

describe('stop and promote racing each other', () => {
  it('lets one win: the other is refused on the ruleset it would change, and records no version and no audit entry', async () => {
    await rule('raced')
    expect((await call('POST', '/v1/rules/rollout', { pack: 'race', rule_ids: ['raced'], percentage: 10, demote_enforced: true })).statusCode).toBe(200)
    const scope = { tenant: app.identity.defaultTenant, mode: 'test' as const }
    const before = (await app.controlPlane.history(scope)).length
    const answers = await Promise.all([call('POST', '/v1/rules/rollout/race/stop'), call('POST', '/v1/rules/rollout/race/promote'), call('POST', '/v1/rules/rollout/race/stop')])
    const codes = answers.map(a => a.statusCode)
    // A stop and a promote can both end a run only in this order: stopped, then promoted (a stopped pack may be promoted).
    expect(codes.filter(c => c === 200).length).toBeGreaterThanOrEqual(1)
    expect(answers.filter(a => a.statusCode !== 200).every(a => a.statusCode === 409 && a.json().error.code === 'invalid_transition')).toBe(true)
    const made = (await app.controlPlane.history(scope)).slice(before).map(v => v.change.type)
    expect(made).toHaveLength(codes.filter(c => c === 200).length)
    expect(made.filter(t => t === 'rollout.stopped').length).toBeLessThanOrEqual(1)
    await eventually(async () => {
      const audited = (await call('GET', '/v1/audit?object_id=race')).json().data.filter((e: { action: string }) => e.action === 'rollout.stopped' || e.action === 'rollout.promoted')
      return audited.length === made.length || undefined
    }, 10000, 'one audit entry per change made')
  })
})

describe('a pack\'s hits over many ruleset versions', () => {
  it('reads at most the newest 64 versions for one call, and says the figures are partial', async () => {
    await rule('churned', { mode: 'shadow' })
    expect((await call('POST', '/v1/rules/rollout', { pack: 'churn', rule_ids: ['churned'], percentage: 100 })).statusCode).toBe(200)
    for (let i = 0; i < 70; i++) {
      await rule(`filler_${i}`, { mode: 'shadow' })
      await score({ event: 'churned', user_id: `u-churn-${i}` })
    }
    const hits = (await call('GET', '/v1/rules/hits')).json()
    expect(hits.truncated).toBe(true)
    expect(hits.packs.churn.decisions).toBe(64)
    expect(hits.packs.churn.hits).toBe(64)
  })
})
