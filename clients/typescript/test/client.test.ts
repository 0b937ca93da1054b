import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../../src/app/app.js'
import { eventually, startTestApp, TEST_KEY } from '../../../test/support/app.js'
import { Receiver } from '../../../test/support/receiver.js'
import { ContractHarness } from '../../../test/support/contract.js'
import { webhookEnv } from '../../../test/contract/webhooks.flow.js'
import { createClient, FraudApiError, FraudConnectionError, listAll, ok, verifyWebhook, WebhookSignatureError, type Schemas } from '../src/index.js'

/** The TypeScript client against a live service on a real port, and a real HTTPS receiver for its webhooks. */
let app: App
let receiver: Receiver
const fds = () => createClient({ apiKey: TEST_KEY, baseUrl: app.address!, initialDelayMs: 10 })

beforeAll(async () => {
  receiver = await Receiver.start()
  app = await startTestApp({ ...webhookEnv(receiver) }, { listen: true })
})
afterAll(async () => {
  await app.close()
  await receiver.down()
})

describe('the TypeScript client', () => {
  it('scores, reads the transaction back, and throws typed errors with code, param and trace_id', async () => {
    const decision: Schemas['Decision'] = await ok(fds().POST('/v1/score', { body: { event: 'payment', amount: 12_000, currency: 'EUR', user_id: 'u-ts-1', device_fingerprint: 'own key kept' } }))
    expect(decision.action).toBe('flag')
    const transaction = await ok(fds().GET('/v1/transactions/{id}', { params: { path: { id: decision.trace_id } } }))
    expect(transaction.decision.trace_id).toBe(decision.trace_id)
    expect(transaction.request).toMatchObject({ custom: { device_fingerprint: 'own key kept' } })

    const missing = await fds().GET('/v1/transactions/{id}', { params: { path: { id: 'trc_nope' } } }).catch((e: unknown) => e)
    expect(missing).toBeInstanceOf(FraudApiError)
    expect(missing).toMatchObject({ status: 404, code: 'resource_missing', type: 'invalid_request_error' })
    expect((missing as FraudApiError).traceId).toMatch(/^trc_/)
    const invalid = await fds().POST('/v1/score', { body: { event: 'payment', amount: -1 } }).catch((e: unknown) => e)
    expect(invalid).toMatchObject({ status: 400, code: 'parameter_invalid', param: 'amount' })
  })

  it('scores a batch: one decision per good event, the bad one\u2019s error at its place', async () => {
    const batch = await ok(fds().POST('/v1/score/batch', { body: { events: [{ event: 'login', user_id: 'u-ts-b1' }, { event: 'payment', amount: 'ten' }, { event: 'login', user_id: 'u-ts-b2' }] } }))
    expect(batch.data).toHaveLength(3)
    expect(batch.data[0]).toHaveProperty('action')
    expect(batch.data[1]).toMatchObject({ error: { code: 'parameter_invalid', param: 'events.1.amount' } })
  })

  it('sends an Idempotency-Key with every POST, and a retry after a lost answer is done once (the answer replayed)', async () => {
    const keys: string[] = []
    let lose = true
    // The first answer is lost on its way back, after the service made the decision.
    const lossy = createClient({
      apiKey: TEST_KEY,
      baseUrl: app.address!,
      initialDelayMs: 10,
      fetch: async request => {
        keys.push(request.headers.get('idempotency-key') ?? '')
        const response = await fetch(request)
        if (lose) { lose = false; throw new TypeError('fetch failed: socket hang up') }
        return response
      }
    })
    const { data, response } = await lossy.POST('/v1/score', { body: { event: 'payment', amount: 50, currency: 'EUR', user_id: 'u-ts-idem' } })
    expect(keys).toHaveLength(2)
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/)
    expect(keys[1]).toBe(keys[0])
    expect(response.headers.get('idempotent-replayed')).toBe('true')
    const page = await ok(fds().GET('/v1/transactions', { params: { query: { user_id: 'u-ts-idem' } } }))
    expect(page.data.map(t => t.trace_id)).toEqual([data!.trace_id])

    const broken = createClient({ apiKey: TEST_KEY, baseUrl: app.address!, initialDelayMs: 1, maxRetries: 1, fetch: async () => { throw new TypeError('fetch failed') } })
    await expect(broken.GET('/v1/rules')).rejects.toBeInstanceOf(FraudConnectionError)
  })

  it('works rules, a rollout, cases and a disposition, and iterates over every page of a list', async () => {
    const rule = await ok(fds().POST('/v1/rules', { body: { id: 'ts_big_payout', name: 'Big payout', expression: 'request.event == "payout" && request.amount > 5000.0', action: 'flag' } }))
    expect(rule).toMatchObject({ object: 'rule', id: 'ts_big_payout', mode: 'enforce' })
    const rollout = await ok(fds().POST('/v1/rules/rollout', { body: { pack: 'ts_pack', rule_ids: ['ts_big_payout'], percentage: 25, demote_enforced: true } }))
    expect(rollout).toMatchObject({ object: 'rollout', pack: 'ts_pack', status: 'running', mode: 'shadow' })

    const ids: string[] = []
    for await (const r of listAll(fds(), '/v1/rules', { query: { limit: 2 } })) ids.push(r.id)
    expect(ids).toEqual([...ids].sort())
    expect(ids).toContain('ts_big_payout')
    expect(ids.length).toBeGreaterThan(2)

    // An approved payment: a flagged one has its case opened by the service already.
    const decision = await ok(fds().POST('/v1/score', { body: { event: 'payment', amount: 15, currency: 'EUR', user_id: 'u-ts-case' } }))
    const opened = await ok(fds().POST('/v1/cases', { body: { trace_id: decision.trace_id, reason: 'from the client test' } }))
    expect(opened).toMatchObject({ object: 'case', status: 'open', trace_id: decision.trace_id })
    const closed = await ok(fds().POST('/v1/cases/{id}/disposition', { params: { path: { id: opened.id } }, body: { outcome: 'fraud', analyst: 'ana@example.com' } }))
    expect(closed).toMatchObject({ status: 'closed', outcome: 'fraud' })
  })

  it('creates a key and uses it', async () => {
    const key = await ok(fds().POST('/v1/keys', { body: { name: 'score only', scopes: ['score:write'] } }))
    expect(key.secret).toMatch(/^sk_test_/)
    const scoped = createClient({ apiKey: key.secret!, baseUrl: app.address! })
    expect((await ok(scoped.POST('/v1/score', { body: { event: 'login', user_id: 'u-ts-key' } }))).action).toBeDefined()
    await expect(scoped.GET('/v1/rules')).rejects.toMatchObject({ status: 403, code: 'insufficient_scope' })
  })

  it('verifies the webhooks a real HTTPS receiver gets, with both secrets during a rotation', async () => {
    const endpoint = await ok(fds().POST('/v1/webhooks', { body: { url: receiver.url, events: ['case.created'] } }))
    await ok(fds().POST('/v1/score', { body: { event: 'payment', amount: 20_000, currency: 'EUR', user_id: 'u-ts-hook' } }))
    const first = await eventually(() => receiver.received.find(r => r.event.type === 'case.created'), 20_000, 'a case.created delivery')
    const verified = verifyWebhook(first.body, first.signature, endpoint.secret!)
    expect(verified.type).toBe('case.created')
    if (verified.type === 'case.created') expect(verified.data.case_id).toMatch(/^case_/)
    // The body is what the document's `webhooks` says (components.schemas.WebhookEvent).
    expect(new ContractHarness().check(JSON.parse(readFileSync('clients/openapi.json', 'utf8')) as object, '#/components/schemas/WebhookEvent', JSON.parse(first.body))).toEqual([])
    expect(() => verifyWebhook(first.body, first.signature, 'whsec_wrong')).toThrow(WebhookSignatureError)
    expect(() => verifyWebhook(first.body.replace('case.created', 'case.closed'), first.signature, endpoint.secret!)).toThrow(WebhookSignatureError)
    expect(() => verifyWebhook(first.body, first.signature, endpoint.secret!, 300, Math.floor(Date.now() / 1000) + 3600)).toThrow(/over the tolerance/)

    const rotated = await ok(fds().POST('/v1/webhooks/{id}/rotate_secret', { params: { path: { id: endpoint.id } } }))
    const before = receiver.received.length
    await ok(fds().POST('/v1/score', { body: { event: 'payment', amount: 20_000, currency: 'EUR', user_id: 'u-ts-hook-2' } }))
    const second = await eventually(() => receiver.received.slice(before).find(r => r.event.type === 'case.created'), 20_000, 'a delivery after the rotation')
    expect(verifyWebhook(second.body, second.signature, rotated.secret!).id).toBe(second.event.id)
    expect(verifyWebhook(second.body, second.signature, endpoint.secret!).id).toBe(second.event.id)
    expect(verifyWebhook(second.body, second.signature, ['whsec_other', rotated.secret!]).id).toBe(second.event.id)
  })
})

describe('rate limits', () => {
  it('waits as Retry-After says and succeeds; without retries, a 429 FraudApiError with retryAfter', async () => {
    const limited = await startTestApp({ RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '1' }, { listen: true })
    try {
      const once = createClient({ apiKey: TEST_KEY, baseUrl: limited.address!, maxRetries: 0 })
      await ok(once.GET('/v1/rules'))
      const refused = await once.GET('/v1/rules').catch((e: unknown) => e)
      expect(refused).toMatchObject({ status: 429, code: 'rate_limited' })
      expect((refused as FraudApiError).retryAfter).toBeGreaterThanOrEqual(1)
      const patient = createClient({ apiKey: TEST_KEY, baseUrl: limited.address!, maxRetries: 3 })
      expect((await ok(patient.GET('/v1/rules'))).object).toBe('list')
    } finally {
      await limited.close()
    }
  })
})
