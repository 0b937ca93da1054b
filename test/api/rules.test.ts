import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { decide } from '../../src/domain/decision/decide.js'
import { policyOf } from '../../src/domain/decision/default-policy.js'
import { ruleSignals } from '../../src/domain/features/extract.js'
import { compileRuleset } from '../../src/domain/rules/ruleset.js'
import { storeApiKey } from '../../src/stores/api-keys.js'
import { auth, eventually, LIVE_KEY, startTestApp, tempDir } from '../support/app.js'

let app: App
const post = (url: string, payload: object, key?: string) => app.server.inject({ method: 'POST', url, headers: auth(key), payload })
const get = (url: string, key?: string) => app.server.inject({ method: 'GET', url, headers: auth(key) })
const score = async (payload: object) => (await post('/v1/score', payload)).json()

beforeAll(async () => { app = await startTestApp() })
afterAll(async () => { await app.close() })

describe('rules API', () => {
  it('rejects an invalid expression with a 400 naming its position', async () => {
    const res = await post('/v1/rules', { name: 'bad', expression: 'request.amount >\n  ', action: 'flag' })
    expect(res.statusCode).toBe(400)
    expect(res.json().error).toMatchObject({ code: 'parameter_invalid', param: 'expression' })
    expect(res.json().error.message).toMatch(/line 2, column \d+/)
    const unknown = await post('/v1/rules', { name: 'x', expression: 'true', action: 'flag', colour: 'red' })
    expect(unknown.json().error).toMatchObject({ code: 'parameter_unknown', param: 'colour' })
    const missing = await post('/v1/rules', { name: 'x', action: 'flag' })
    expect(missing.json().error).toMatchObject({ code: 'parameter_missing', param: 'expression' })
  })

  it('creates a rule as a new ruleset version that decisions then record', async () => {
    const created = await post('/v1/rules', { id: 'high_payout', name: 'High payout', expression: 'request.event == "payout" && request.amount > 500.0', action: 'reject', priority: 10 })
    expect(created.statusCode).toBe(200)
    expect(created.json()).toMatchObject({ object: 'rule', id: 'high_payout', mode: 'enforce', status: 'active', ruleset_version: 'rs_1' })
    const hit = await score({ event: 'payout', amount: 900, user_id: 'u-rule' })
    expect(hit).toMatchObject({ action: 'reject', rules: ['high_payout'] })
    const tx = (await get(`/v1/transactions/${hit.trace_id}`)).json()
    expect(tx.evaluation.ruleset_version).toBe('rs_1')
    expect((await score({ event: 'payout', amount: 100 })).rules).toEqual([])
  })

  it('moves a rule to shadow mode: reported under decision.shadow, never changing the action', async () => {
    const updated = await post('/v1/rules', { id: 'high_payout', mode: 'shadow' })
    expect(updated.json()).toMatchObject({ id: 'high_payout', mode: 'shadow', expression: 'request.event == "payout" && request.amount > 500.0', ruleset_version: 'rs_2' })
    const res = await score({ event: 'payout', amount: 900, user_id: 'u-rule' })
    expect(res.action).toBe('approve')
    expect(res.rules).toEqual([])
    expect(res.shadow).toEqual({ action: 'reject', rules: ['high_payout'] })
  })

  it('lists rules with filters and pagination and shows a rule with its history', async () => {
    await post('/v1/rules', { id: 'zz_login_burst', name: 'Login burst', expression: 'request.event == "login" && velocity("user", "count", "1h") > 10.0', action: 'flag' })
    const all = (await get('/v1/rules')).json()
    expect(all).toMatchObject({ object: 'list', url: '/v1/rules', has_more: false })
    expect(all.data.map((r: { id: string }) => r.id)).toEqual(['allow_list', 'amount_over_10000', 'deny_list', 'high_payout', 'zz_login_burst'])
    const page = (await get('/v1/rules?limit=2&starting_after=amount_over_10000')).json()
    expect(page.data.map((r: { id: string }) => r.id)).toEqual(['deny_list', 'high_payout'])
    expect(page.has_more).toBe(true)
    expect((await get('/v1/rules?mode=shadow')).json().data.map((r: { id: string }) => r.id)).toEqual(['high_payout'])
    // `limit` is an integer (the query string coerced to the schema's type): what is not one is refused, not rounded.
    for (const limit of ['0', '101', '2.5', 'abc', '', '1e2', '1e400', '0x10', '%205']) {
      expect((await get(`/v1/rules?limit=${limit}`)).json().error, limit).toMatchObject({ code: 'parameter_invalid', param: 'limit' })
    }
    const one = (await get('/v1/rules/high_payout')).json()
    expect(one.history.map((h: { ruleset_version: string, rule: { mode: string } }) => [h.ruleset_version, h.rule.mode])).toEqual([['rs_1', 'enforce'], ['rs_2', 'shadow']])
    expect((await get('/v1/rules/nope')).statusCode).toBe(404)
  })

  it('re-evaluating a stored transaction against its recorded ruleset version reproduces it', async () => {
    const decision = await score({ event: 'payout', amount: 700, user_id: 'u-replay', email: 'x@example.com' })
    const tx = (await get(`/v1/transactions/${decision.trace_id}`)).json()
    const scope = { tenant: app.identity.defaultTenant, mode: 'test' as const }
    await post('/v1/rules', { id: 'later_change', name: 'later', expression: 'true', action: 'reject' })
    const version = (await app.controlPlane.history(scope)).find(v => v.ruleset.version === tx.evaluation.ruleset_version)!
    const replay = decide(tx.request, {
      features: tx.evaluation.features,
      policy: policyOf(version.ruleset),
      rules: compileRuleset(version.ruleset),
      signals: ruleSignals(tx.evaluation.features),
      model: (await app.modelRegistry.version(scope, tx.evaluation.model_version))!,
      overrides: [],
      caseGates: [],
      now_ms: tx.created * 1000,
      tenant: scope.tenant,
      fallback_subject: decision.trace_id
    })
    expect({ ...replay.decision, trace_id: decision.trace_id, latency_ms: decision.latency_ms }).toEqual(decision)
    await post('/v1/rules', { id: 'later_change', status: 'disabled' })
  })
})

describe('value lists', () => {
  it('adds and removes items, each its own audited change and no ruleset version, and Stage 1 follows at once', async () => {
    const scope = { tenant: app.identity.defaultTenant, mode: 'test' as const }
    const versions = (await app.controlPlane.history(scope)).length
    const added = await post('/v1/lists/deny_ips/items', { value: '198.51.100.0/24' })
    expect(added.json()).toMatchObject({ object: 'value_list', alias: 'deny_ips', item_type: 'ip', items: ['198.51.100.0/24'] })
    expect((await score({ event: 'login', ip: '198.51.100.77' })).action).toBe('reject')
    const removed = await app.server.inject({ method: 'DELETE', url: `/v1/lists/deny_ips/items/${encodeURIComponent('198.51.100.0/24')}`, headers: auth() })
    expect(removed.json().items).toEqual([])
    expect((await score({ event: 'login', ip: '198.51.100.77' })).action).toBe('approve')
    expect((await app.controlPlane.history(scope)).length).toBe(versions)
    const trail = await eventually(async () => {
      const entries = (await get('/v1/audit?object_id=deny_ips')).json().data
      return entries.length >= 2 ? entries : undefined
    }, 10000, 'list audit')
    expect(trail.map((e: { action: string, data: { value: string } }) => [e.action, e.data.value]).sort()).toEqual([['list.item_added', '198.51.100.0/24'], ['list.item_removed', '198.51.100.0/24']])
  })

  it('keeps items across a restart, and a deleted list takes its items along', async () => {
    const dataDir = tempDir()
    let own = await startTestApp({ DATA_DIR: dataDir })
    const ownPost = (url: string, payload: object) => own.server.inject({ method: 'POST', url, headers: auth(), payload })
    await ownPost('/v1/lists', { alias: 'vip_users', item_type: 'user_id' })
    await ownPost('/v1/lists/vip_users/items', { value: 'u-vip' })
    await ownPost('/v1/lists/deny_users/items', { value: 'u-bad' })
    await own.close()
    own = await startTestApp({ DATA_DIR: dataDir })
    try {
      const items = async (alias: string) => (await own.server.inject({ method: 'GET', url: `/v1/lists/${alias}`, headers: auth() })).json().items
      expect(await items('vip_users')).toEqual(['u-vip'])
      expect((await own.server.inject({ method: 'POST', url: '/v1/score', headers: auth(), payload: { event: 'login', user_id: 'u-bad' } })).json().action).toBe('reject')
      await own.server.inject({ method: 'DELETE', url: '/v1/lists/vip_users', headers: auth() })
      await own.server.inject({ method: 'POST', url: '/v1/lists', headers: auth(), payload: { alias: 'vip_users', item_type: 'user_id' } })
      expect(await items('vip_users')).toEqual([])
    } finally {
      await own.close()
    }
  })

  it('creates custom lists usable from rules, and validates items', async () => {
    expect((await post('/v1/lists', { alias: 'risky_bins', item_type: 'string' })).statusCode).toBe(200)
    expect((await post('/v1/lists', { alias: 'risky_bins', item_type: 'string' })).json().error.code).toBe('resource_exists')
    await post('/v1/lists/risky_bins/items', { value: '400000' })
    await post('/v1/rules', { id: 'risky_bin', name: 'Risky BIN', expression: 'has(custom.card_bin) && in_list("risky_bins", custom.card_bin)', action: 'flag' })
    expect(await score({ event: 'payment', card_bin: '400000' })).toMatchObject({ action: 'flag', rules: ['risky_bin'] })
    expect((await post('/v1/lists/deny_ips/items', { value: '10.0.0.0/99' })).json().error).toMatchObject({ code: 'parameter_invalid', param: 'value' })
    expect((await post('/v1/lists/deny_countries/items', { value: 'France' })).json().error.code).toBe('parameter_invalid')
    expect((await post('/v1/lists/nope/items', { value: 'x' })).statusCode).toBe(404)
    const lists = (await get('/v1/lists?limit=100')).json()
    expect(lists.data.find((l: { alias: string }) => l.alias === 'risky_bins')).toEqual({ object: 'value_list', alias: 'risky_bins', item_type: 'string', items_count: 1 })
  })

  it('deletes a list only once no active rule names it', async () => {
    await post('/v1/lists', { alias: 'old_bins', item_type: 'string' })
    await post('/v1/rules', { id: 'old_bin', name: 'Old BIN', expression: 'in_list("old_bins", custom.card_bin)', action: 'flag' })
    const del = () => app.server.inject({ method: 'DELETE', url: '/v1/lists/old_bins', headers: auth() })
    expect((await del()).json().error).toMatchObject({ code: 'resource_in_use', param: 'alias' })
    await post('/v1/rules', { id: 'old_bin', status: 'disabled' })
    expect((await del()).json()).toEqual({ object: 'value_list', alias: 'old_bins', deleted: true })
    expect((await get('/v1/lists/old_bins')).statusCode).toBe(404)
    expect((await del()).statusCode).toBe(404)
  })
})

describe('rules scopes and isolation', () => {
  it('needs rules:write to change and rules:read to read', async () => {
    storeApiKey(app.state, 'sk_test_rulesreaderkey00000000', { id: 'key_rr', name: 'r', tenant_id: app.identity.defaultTenant, livemode: false, scopes: ['rules:read'], created_ms: 0 })
    expect((await get('/v1/rules', 'sk_test_rulesreaderkey00000000')).statusCode).toBe(200)
    expect((await post('/v1/rules', { name: 'x', expression: 'true', action: 'flag' }, 'sk_test_rulesreaderkey00000000')).json().error.code).toBe('insufficient_scope')
    storeApiKey(app.state, 'sk_test_scoreonlykey0000000000', { id: 'key_so', name: 's', tenant_id: app.identity.defaultTenant, livemode: false, scopes: ['score:write'], created_ms: 0 })
    expect((await get('/v1/lists', 'sk_test_scoreonlykey0000000000')).json().error.code).toBe('insufficient_scope')
  })

  it('keeps live rules apart from sandbox rules', async () => {
    const live = (await get('/v1/rules?limit=100', LIVE_KEY)).json()
    expect(live.data.map((r: { id: string }) => r.id)).toEqual(['allow_list', 'amount_over_10000', 'deny_list'])
    expect(live.data[0].ruleset_version).toBe('rs_default_2')
  })
})

describe('shadow rollout of a rule pack', () => {
  it('runs the pack for its share of subjects only, records the bucket, never changes the action', async () => {
    await post('/v1/rules', { id: 'pack_rule', name: 'pack rule', expression: 'request.event == "signup"', action: 'reject' })
    const rolled = await post('/v1/rules/rollout', { pack: 'signup_pack', rule_ids: ['pack_rule'], percentage: 30, demote_enforced: true })
    expect(rolled.json()).toMatchObject({ object: 'rollout', pack: 'signup_pack', percentage: 30, mode: 'shadow' })
    expect((await get('/v1/rules/pack_rule')).json().mode).toBe('shadow')
    let inPack = 0
    const n = 200
    for (let i = 0; i < n; i++) {
      const d = await score({ event: 'signup', user_id: `rollout_user_${i}` })
      expect(d.action).not.toBe('reject')
      const tx = (await get(`/v1/transactions/${d.trace_id}`)).json()
      const bucket = tx.evaluation.rollout_buckets.signup_pack as number
      const shadowed = d.shadow?.rules.includes('pack_rule') === true
      expect(shadowed).toBe(bucket < 30)
      if (shadowed) { inPack++; expect(d.shadow.action).toBe('reject') }
    }
    expect(inPack / n).toBeGreaterThan(0.15)
    expect(inPack / n).toBeLessThan(0.45)
    expect((await post('/v1/rules/rollout', { pack: 'p2', rule_ids: ['no_such_rule'], percentage: 5 })).json().error).toMatchObject({ code: 'parameter_invalid', param: 'rule_ids' })
    expect((await post('/v1/rules/rollout', { pack: 'p2', rule_ids: ['pack_rule'], percentage: 101 })).statusCode).toBe(400)
  })
})

describe('backtest', () => {
  it('evaluates a draft rule over recorded transactions in a time range', async () => {
    const amounts = [50, 150, 350, 450, 1000, 20]
    for (const amount of amounts) await score({ event: 'bt_event', amount, user_id: `bt_${amount}` })
    const now = Math.floor(Date.now() / 1000)
    const res = await post('/v1/rules/draft_big/backtest', { expression: 'request.event == "bt_event" && request.amount > 300.0', from: now - 600, to: now + 600 })
    expect(res.statusCode).toBe(200)
    const report = res.json()
    expect(report).toMatchObject({ object: 'backtest', rule_id: 'draft_big', matched: 3, truncated: false, matched_by_outcome: { fraud: 0, safe: 0, chargeback: 0, unlabeled: 3 } })
    expect(report.evaluated).toBeGreaterThanOrEqual(amounts.length)
    expect(report.matched_by_action.approve + report.matched_by_action.flag + report.matched_by_action.reject).toBe(3)
    expect(report.sample_trace_ids).toHaveLength(3)
    const past = await post('/v1/rules/draft_big/backtest', { expression: 'request.event == "bt_event"', from: now - 7200, to: now - 3600 })
    expect(past.json()).toMatchObject({ evaluated: 0, matched: 0 })
    const existing = await post('/v1/rules/high_payout/backtest', { from: now - 600, to: now + 600 })
    expect(existing.json().expression).toBe('request.event == "payout" && request.amount > 500.0')
    expect((await post('/v1/rules/nope/backtest', { from: now - 600, to: now })).statusCode).toBe(404)
    expect((await post('/v1/rules/x/backtest', { expression: 'request.amount >', from: now - 600, to: now })).json().error.param).toBe('expression')
    expect((await post('/v1/rules/x/backtest', { expression: 'true', from: now, to: now - 5 })).json().error.param).toBe('to')
  })
})

describe('velocity in rules', () => {
  it('counts what rules need, such as a custom key over 10 minutes, from the moment the rule exists', async () => {
    await post('/v1/rules', { id: 'terminal_burst', name: 'Terminal burst', expression: 'velocity("custom.terminal_id", "count", "10m") >= 3.0', action: 'flag' })
    const results = []
    for (let i = 0; i < 4; i++) results.push(await score({ event: 'payment', amount: 5, terminal_id: 'T-burst', user_id: `tb_${i}` }))
    expect(results.map(r => r.rules.includes('terminal_burst'))).toEqual([false, false, false, true])
    const tx = (await get(`/v1/transactions/${results[3].trace_id}`)).json()
    expect(tx.evaluation.features['custom.terminal_id_count_10m']).toBe(3)
    await post('/v1/rules', { id: 'terminal_burst', status: 'disabled' })
  })
})

describe('rule editing aids', () => {
  let own: App
  const post2 = (url: string, payload: object) => own.server.inject({ method: 'POST', url, headers: auth(), payload })
  const get2 = (url: string) => own.server.inject({ method: 'GET', url, headers: auth() })
  const score2 = async (payload: object) => (await post2('/v1/score', payload)).json()
  beforeAll(async () => { own = await startTestApp() })
  afterAll(async () => { await own.close() })

  it('checks an expression as one types: valid, or the first error at its line and column', async () => {
    expect((await post2('/v1/rules/validate', { expression: 'request.amount > 10.0' })).json()).toMatchObject({ object: 'expression_check', valid: true, error: null, cost: expect.any(Number) })
    const bad = (await post2('/v1/rules/validate', { expression: 'request.amount > 10.0 &&\n  (request.event ==' })).json()
    expect(bad).toMatchObject({ object: 'expression_check', valid: false, error: { line: 2 } })
    expect(bad.error.column).toBeGreaterThan(0)
    expect((await post2('/v1/rules/validate', {})).json().error).toMatchObject({ code: 'parameter_missing', param: 'expression' })
    expect((await post2('/v1/rules', { id: 'hits', name: 'x', expression: 'true', action: 'flag' })).json().error).toMatchObject({ code: 'parameter_invalid', param: 'id' })
  })

  it('counts each rule\'s enforced and shadow matches over the last hours', async () => {
    await post2('/v1/rules', { id: 'shadow_small_payment', name: 'Small payment', expression: 'request.event == "payment" && request.amount < 100.0', action: 'flag', mode: 'shadow' })
    const before = (await get2('/v1/rules/hits')).json()
    await score2({ event: 'payment', amount: 20_000, currency: 'EUR', user_id: 'u-hits-1' })
    await score2({ event: 'payment', amount: 50, currency: 'EUR', user_id: 'u-hits-2' })
    await score2({ event: 'payment', amount: 60, currency: 'EUR', user_id: 'u-hits-3' })
    const after = (await get2('/v1/rules/hits?hours=1')).json()
    expect(after).toMatchObject({ object: 'rule_hits', truncated: false })
    expect(after.decisions - (before.decisions ?? 0)).toBeGreaterThanOrEqual(3)
    expect(after.hits.amount_over_10000.enforce - (before.hits.amount_over_10000?.enforce ?? 0)).toBe(1)
    expect(after.hits.shadow_small_payment).toEqual({ enforce: 0, shadow: 2 })
    expect((await get2('/v1/rules/hits?hours=0')).json().error.param).toBe('hours')
  })
})

describe('what a rule author got wrong', () => {
  let own: App
  const postOwn = (url: string, payload: object) => own.server.inject({ method: 'POST', url, headers: auth(), payload })
  const getOwn = (url: string) => own.server.inject({ method: 'GET', url, headers: auth() })
  beforeAll(async () => { own = await startTestApp() })
  afterAll(async () => { await own.close() })

  it('refuses a rule that could never match: an unknown field, a number compared with a string, a list that does not exist; saved or validated', async () => {
    for (const [expression, message] of [
      ['request.event == "payment" &&\n  request.amout > 100.0', /line 2, column 3: request has no field 'amout' \(did you mean 'amount'\?\)/],
      ['request.amount > "500"', /request.amount is a number, compared here with a string/],
      ['in_list("no_such_list", request.email)', /no value list is named 'no_such_list'/]
    ] as const) {
      const saved = await postOwn('/v1/rules', { id: 'never_matches', name: 'x', expression, action: 'flag' })
      expect(saved.statusCode, expression).toBe(400)
      expect(saved.json().error, expression).toMatchObject({ code: 'parameter_invalid', param: 'expression', message: expect.stringMatching(message) })
      const validated = (await postOwn('/v1/rules/validate', { expression })).json()
      expect(validated, expression).toMatchObject({ valid: false, error: { code: 'parameter_invalid', message: expect.stringMatching(message.source.replace(/^line.*?: /, '')) } })
    }
    expect((await getOwn('/v1/rules/never_matches')).statusCode).toBe(404)
    expect((await postOwn('/v1/rules/validate', { expression: 'in_list("deny_emails", request.email) && request.amount > 500.0' })).json()).toMatchObject({ valid: true })
  })

  it('makes no version when a rule is saved unchanged', async () => {
    const rule = { id: 'same_again', name: 'Same', expression: 'request.amount > 777.0', action: 'flag' }
    const first = (await postOwn('/v1/rules', rule)).json()
    const again = (await postOwn('/v1/rules', rule)).json()
    expect(again.ruleset_version).toBe(first.ruleset_version)
    expect((await getOwn('/v1/rules/same_again')).json().history).toHaveLength(1)
    const changed = (await postOwn('/v1/rules', { ...rule, name: 'Same, renamed' })).json()
    expect(changed.ruleset_version).not.toBe(first.ruleset_version)
  })
})
