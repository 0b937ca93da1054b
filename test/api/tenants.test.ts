import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { auditEntries } from '../../src/stores/audit.js'
import { tenantsCli } from '../../src/app/tenants-cli.js'
import { scan } from '../../src/stores/rocks.js'
import { ADMIN_TOKEN as OPERATOR, auth, eventually, startTestApp, TEST_KEY } from '../support/app.js'

let app: App
const call = (method: 'GET' | 'POST' | 'DELETE', url: string, headers: Record<string, string>, payload?: object) =>
  app.server.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) })
const operator = { authorization: `Bearer ${OPERATOR}` }
const score = (key: string) => call('POST', '/v1/score', auth(key), { event: 'login', user_id: 'u-tenant' })

beforeAll(async () => { app = await startTestApp() })
afterAll(async () => { await app.close() })

describe('the operator API', () => {
  it('creates a tenant with a first key per mode, shown once, and lists it', async () => {
    const created = (await call('POST', '/admin/v1/tenants', operator, { name: 'Acme Payments' })).json()
    expect(created).toMatchObject({ object: 'tenant', id: expect.stringMatching(/^ten_/), name: 'Acme Payments', cell: 0, status: 'active' })
    expect(created.keys.test).toMatch(/^sk_test_/)
    expect(created.keys.live).toMatch(/^sk_live_/)
    expect((await score(created.keys.test)).statusCode).toBe(200)
    expect((await score(created.keys.live)).statusCode).toBe(200)
    // the new tenant's keys act in its own account: the default tenant's decisions are not its own
    const mine = (await call('GET', '/v1/transactions', auth(created.keys.test))).json()
    expect(mine.data).toHaveLength(1)
    const got = (await call('GET', `/admin/v1/tenants/${created.id}`, operator)).json()
    expect(got.keys).toBeUndefined()
    const list = (await call('GET', '/admin/v1/tenants?limit=100', operator)).json()
    expect(list).toMatchObject({ object: 'list', url: '/admin/v1/tenants', has_more: false })
    expect(list.data.map((t: { id: string }) => t.id)).toContain(created.id)
    const audited = await eventually(async () => { const e = await auditEntries(app.state, { tenant: created.id, mode: 'live' }, { objectId: created.id }); return e.some(x => x.action === 'tenant.created') ? e : undefined }, 5000, 'tenant.created audited')
    expect(audited.find(x => x.action === 'tenant.created')).toMatchObject({ actor: 'operator', object_id: created.id })
  })

  it('suspends: the keys answer 403 tenant_suspended, another tenant is untouched; resume restores them', async () => {
    const t = (await call('POST', '/admin/v1/tenants', operator, { name: 'Suspended Ltd' })).json()
    const suspended = (await call('POST', `/admin/v1/tenants/${t.id}/suspend`, operator)).json()
    expect(suspended).toMatchObject({ id: t.id, status: 'suspended' })
    for (const key of [t.keys.test, t.keys.live]) {
      const refused = await score(key)
      expect(refused.statusCode).toBe(403)
      expect(refused.json().error).toMatchObject({ type: 'permission_error', code: 'tenant_suspended' })
    }
    expect((await score(TEST_KEY)).statusCode).toBe(200)
    expect((await call('POST', `/admin/v1/tenants/${t.id}/resume`, operator)).json()).toMatchObject({ status: 'active' })
    expect((await score(t.keys.test)).statusCode).toBe(200)
    expect((await call('POST', '/admin/v1/tenants/ten_missing/suspend', operator)).json().error).toMatchObject({ code: 'resource_missing' })
  })

  it("bounds a tenant by its own quotas, leaving the others at the deployment's", async () => {
    const t = (await call('POST', '/admin/v1/tenants', operator, { name: 'Quota Co', quotas: { rate_per_second: 1, burst: 2 } })).json()
    expect(t.quotas).toEqual({ rate_per_second: 1, burst: 2 })
    const answers = [await score(t.keys.test), await score(t.keys.test), await score(t.keys.test)]
    expect(answers.map(a => a.statusCode)).toEqual([200, 200, 429])
    expect(answers[2]!.headers['x-ratelimit-limit']).toBe('1')
    expect(answers[2]!.json().error.message).toContain('1/s sustained, bursts up to 2')
    const other = await score(TEST_KEY)
    expect(other.statusCode).toBe(200)
    expect(Number(other.headers['x-ratelimit-limit'])).toBeGreaterThan(1)
    const batch = (n: number, key: string) => call('POST', '/v1/score/batch', auth(key), { events: Array.from({ length: n }, (_, i) => ({ event: 'login', user_id: `u-batch-${i}` })) })
    const b = (await call('POST', '/admin/v1/tenants', operator, { name: 'Batch Co' })).json()
    expect((await call('POST', `/admin/v1/tenants/${b.id}/quotas`, operator, { batch_size: 2 })).json().quotas).toEqual({ batch_size: 2 })
    expect((await batch(3, b.keys.test)).json().error).toMatchObject({ code: 'batch_too_large', param: 'events' })
    expect((await batch(2, b.keys.test)).statusCode).toBe(200)
    expect((await batch(3, TEST_KEY)).statusCode).toBe(200)
    expect((await call('POST', `/admin/v1/tenants/${b.id}/quotas`, operator, { batch_size: null })).json().quotas).toEqual({})
    expect((await batch(3, b.keys.test)).statusCode).toBe(200)
    expect((await call('POST', `/admin/v1/tenants/${b.id}/quotas`, operator, { batch_size: 501 })).statusCode).toBe(400)
    expect((await call('POST', `/admin/v1/tenants/${b.id}/quotas`, operator, { rows: 1 })).statusCode).toBe(400)
  })

  it('bounds all of a tenant\'s keys together: minting keys multiplies nothing', async () => {
    const t = (await call('POST', '/admin/v1/tenants', operator, { name: 'Minting Co' })).json()
    // The attack: many keys, each with a full bucket of its own.
    const keys = [t.keys.test]
    for (let i = 0; i < 4; i++) keys.push((await call('POST', '/v1/keys', auth(t.keys.test), { name: `minted-${i}` })).json().secret)
    await call('POST', `/admin/v1/tenants/${t.id}/quotas`, operator, { rate_per_second: 1, burst: 2, tenant_rate_per_second: 1, tenant_burst: 3 })
    const answers = []
    for (const key of keys) answers.push(await score(key))
    expect(answers.map(a => a.statusCode)).toEqual([200, 200, 200, 429, 429])
    expect(answers[3]!.json().error.message).toContain('this account (all its API keys together): 1/s sustained, bursts up to 3')
    expect(answers[3]!.headers['x-ratelimit-limit']).toBe('1')
    expect((await score(TEST_KEY)).statusCode).toBe(200)
    // Without the tenant's bucket, each key has its own two tokens.
    expect((await call('POST', `/admin/v1/tenants/${t.id}/quotas`, operator, { tenant_rate_per_second: null, tenant_burst: null })).json().quotas).toEqual({ rate_per_second: 1, burst: 2 })
    expect((await score(keys[4]!)).statusCode).toBe(200)
  })

  it("bounds a tenant's rules and list items by its quotas", async () => {
    const t = (await call('POST', '/admin/v1/tenants', operator, { name: 'Rules Co' })).json()
    const key = auth(t.keys.test)
    const rules = (await call('GET', '/v1/rules?limit=100', key)).json().data.length
    await call('POST', `/admin/v1/tenants/${t.id}/quotas`, operator, { rules: rules + 1, list_items: 2 })
    const rule = (id: string) => call('POST', '/v1/rules', key, { id, name: id, expression: 'request.amount > 10000', action: 'flag' })
    expect((await rule('big_amount')).statusCode).toBe(200)
    expect((await rule('bigger_amount')).json().error).toMatchObject({ code: 'quota_exceeded', param: 'id' })
    expect((await call('POST', '/v1/rules', key, { id: 'big_amount', expression: 'request.amount > 20000' })).statusCode).toBe(200)
    expect((await call('POST', '/v1/lists', key, { alias: 'vip_users', item_type: 'user_id' })).statusCode).toBe(200)
    const add = (value: string) => call('POST', '/v1/lists/vip_users/items', key, { value })
    expect((await add('u-1')).statusCode).toBe(200)
    expect((await add('u-2')).statusCode).toBe(200)
    expect((await add('u-3')).json().error).toMatchObject({ code: 'quota_exceeded', param: 'value' })
    expect((await call('POST', '/v1/rules', auth(TEST_KEY), { id: 'other_tenant_rule', name: 'x', expression: 'request.amount > 10000', action: 'flag' })).statusCode).toBe(200)
  })

  it("suspends the tenant's dashboard sessions too", async () => {
    const t = (await call('POST', '/admin/v1/tenants', operator, { name: 'Dashboard Co' })).json()
    const setupToken = (await app.dashboard.issueSetupToken(t.id))!
    const setup = await call('POST', '/dashboard/api/setup', {}, { token: setupToken, email: 'ops@dashboard.example', name: 'Ops', password: 'correct horse battery' })
    expect(setup.statusCode, setup.body).toBe(200)
    const login = await call('POST', '/dashboard/api/login', {}, { email: 'ops@dashboard.example', password: 'correct horse battery' })
    const cookie = `fds_session=${login.cookies.find(c => c.name === 'fds_session')!.value}`
    const cases = () => call('GET', '/v1/cases', { cookie })
    expect((await cases()).statusCode).toBe(200)
    await call('POST', `/admin/v1/tenants/${t.id}/suspend`, operator)
    expect((await cases()).json().error).toMatchObject({ code: 'tenant_suspended' })
    await call('POST', `/admin/v1/tenants/${t.id}/resume`, operator)
    expect((await cases()).statusCode).toBe(200)
  })

  it("deletes a tenant: its keys stop, every piece of its state is erased, its compacted records tombstoned, the others untouched", async () => {
    const t = (await call('POST', '/admin/v1/tenants', operator, { name: 'Erased Inc' })).json()
    const key = auth(t.keys.test)
    expect((await call('POST', '/v1/rules', key, { id: 'erased_big', name: 'big', expression: 'request.amount > 100', action: 'flag' })).statusCode).toBe(200)
    expect((await call('POST', '/v1/lists', key, { alias: 'erased_list', item_type: 'user_id' })).statusCode).toBe(200)
    expect((await call('POST', '/v1/lists/erased_list/items', key, { value: 'u-erased-listed' })).statusCode).toBe(200)
    const endpoint = (await call('POST', '/v1/webhooks', key, { url: 'https://example.com/erased', events: ['case.created'] })).json()
    expect((await call('POST', '/v1/keys', key, { name: 'second' })).statusCode).toBe(200)
    const setup = await call('POST', '/dashboard/api/setup', {}, { token: (await app.dashboard.issueSetupToken(t.id))!, email: 'ops@erased.example', name: 'Ops', password: 'correct horse battery' })
    expect(setup.statusCode, setup.body).toBe(200)
    const flagged = (await call('POST', '/v1/score', key, { event: 'payment', user_id: 'u-erased', amount: 500, currency: 'USD', ip: '203.0.113.9', device_id: 'dev-erased', email: 'erased@erased.example' })).json()
    expect(flagged.action).toBe('flag')
    const theirs = (await call('POST', '/v1/score', auth(TEST_KEY), { event: 'payment', user_id: 'u-kept', amount: 500, currency: 'USD' })).json()
    await eventually(async () => (await call('GET', `/v1/cases?limit=10`, key)).json().data?.length === 1 || undefined, 10_000, 'the case opened')
    // Its delivery was attempted and waits for a retry (example.com does not resolve here): the topology's store holds it.
    await eventually(async () => (await call('GET', `/v1/webhooks/${endpoint.id}/deliveries`, key)).json().data?.[0]?.attempts?.length >= 1 || undefined, 10_000, 'a first attempt')
    const holding = async () => {
      const found: string[] = []
      const needle = Buffer.from(t.id)
      for (const column of [undefined, app.state.velocity]) {
        for await (const [k, v] of scan(app.state.db, Buffer.alloc(0), Buffer.from([0xff]), { column })) {
          if (k.includes(needle) || v.includes(needle)) found.push(k.toString().replaceAll('\u0000', '/'))
        }
      }
      return found
    }
    expect((await holding()).length).toBeGreaterThan(20)

    expect((await call('DELETE', `/admin/v1/tenants/${t.id}`, operator)).json()).toEqual({ object: 'tenant', id: t.id, deleted: true })
    expect((await score(t.keys.test)).json().error).toMatchObject({ code: 'invalid_key' })
    expect((await call('GET', `/admin/v1/tenants/${t.id}`, operator)).json()).toMatchObject({ id: t.id, name: '', status: 'deleted' })
    expect((await call('POST', `/admin/v1/tenants/${t.id}/resume`, operator)).json().error).toMatchObject({ code: 'invalid_transition' })
    await app.eraser.idle()
    // Only the tenant's own record stays, without its name, so that every instance passes over what the logs hold of it.
    expect(await holding()).toEqual([`T/${t.id}`])
    // Its compacted records were tombstoned: the webhooks topic, say, holds an empty record under its key.
    const last = new Map<string, Buffer>()
    const probe = await app.log.subscribe({ group: `probe-${Date.now()}`, topics: [app.topics.webhooks, app.topics.apiKeys], onBatch: async records => { for (const r of records) if (r.headers.tenant_id === t.id) last.set(`${r.topic} ${r.key}`, r.value) } })
    const tombstoned = (topic: string) => [...last].filter(([k, v]) => k.startsWith(`${topic} `) && v.length === 0).length
    await eventually(() => tombstoned(app.topics.apiKeys) === 3 && tombstoned(app.topics.webhooks) === 1 ? true : undefined, 5000, 'the tombstones')
    expect([...last.values()].every(v => v.length === 0)).toBe(true)
    await probe.close()
    // The other tenant is untouched, and deleting again answers the same.
    expect((await call('GET', `/v1/transactions/${theirs.trace_id}`, auth(TEST_KEY))).statusCode).toBe(200)
    expect((await score(TEST_KEY)).statusCode).toBe(200)
    expect((await call('DELETE', `/admin/v1/tenants/${t.id}`, operator)).json()).toMatchObject({ deleted: true })
    expect((await call('DELETE', '/admin/v1/tenants/ten_missing', operator)).json().error).toMatchObject({ code: 'resource_missing' })
  })

  it('answers the operator token only, and the operator token is no API key', async () => {
    expect((await call('GET', '/admin/v1/tenants', auth(TEST_KEY))).json().error).toMatchObject({ type: 'permission_error', code: 'operator_required' })
    expect((await call('GET', '/admin/v1/tenants', { authorization: `Bearer ${OPERATOR}x` })).statusCode).toBe(403)
    expect((await call('GET', '/admin/v1/tenants', {})).json().error).toMatchObject({ code: 'missing_key' })
    expect((await call('POST', '/admin/v1/tenants', operator, { name: '' })).statusCode).toBe(400)
    expect((await call('POST', '/v1/score', operator, { event: 'login', user_id: 'u' })).json().error).toMatchObject({ code: 'invalid_key' })
  })
})

describe('the tenants command line', () => {
  it('creates, lists, suspends and resumes through a listening instance', async () => {
    const listening = await startTestApp({}, { listen: true })
    try {
      const env = { OPERATOR_TOKEN: OPERATOR, SERVICE_URL: listening.address! }
      const lines: string[] = []
      const run = async (...args: string[]) => { lines.length = 0; const code = await tenantsCli(args, env, line => lines.push(line)); return { code, json: lines.length === 1 && lines[0]!.startsWith('{') ? JSON.parse(lines[0]!) : undefined } }
      const created = await run('create', 'Shell Co')
      expect(created.code).toBe(0)
      expect(created.json).toMatchObject({ object: 'tenant', name: 'Shell Co', keys: { test: expect.stringMatching(/^sk_test_/) } })
      expect((await run('list')).json.data.map((t: { id: string }) => t.id)).toContain(created.json.id)
      expect((await run('suspend', created.json.id)).json).toMatchObject({ status: 'suspended' })
      expect((await run('resume', created.json.id)).json).toMatchObject({ status: 'active' })
      expect((await run('get', 'ten_nobody')).code).toBe(1)
      expect((await run('delete', created.json.id)).code).toBe(2)
      expect((await run('delete', created.json.id, '--yes')).json).toMatchObject({ id: created.json.id, deleted: true })
      expect(await tenantsCli(['list'], { SERVICE_URL: listening.address! }, () => {})).toBe(2)
    } finally {
      await listening.close()
    }
  })
})
