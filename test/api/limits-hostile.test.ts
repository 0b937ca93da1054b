import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { LIMITS } from '../../src/services/input-limits.js'
import { auth, startTestApp } from '../support/app.js'
import { type TransactionRecord, decodeEvent, encodeEvent } from '../../src/domain/records/decisions.js'
import { TAG } from '../../src/stores/keys.js'

let app: App
const post = (url: string, payload: string | object, headers: Record<string, string> = {}) =>
  app.server.inject({ method: 'POST', url, headers: { ...auth(), 'content-type': 'application/json', ...headers }, payload: typeof payload === 'string' ? payload : JSON.stringify(payload) })
const nest = (depth: number, leaf: unknown = 1): unknown => depth === 0 ? leaf : { a: nest(depth - 1, leaf) }
/** JSON text nesting `depth` objects, built as text (JSON.stringify itself overflows on very deep values). */
const deepText = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)
const userCount = async (user: string) => {
  const d = (await post('/v1/score', { event: 'probe', user_id: user })).json()
  return (await app.server.inject({ method: 'GET', url: `/v1/transactions/${d.trace_id}`, headers: auth() })).json().evaluation.features.user_count_1h as number
}

beforeAll(async () => { app = await startTestApp() })
afterAll(async () => { await app.close() })

describe('score request limits: whatever is accepted can be encoded, published and decoded', () => {
  it('refuses a custom key nested 50 deep (343 bytes) with 400 naming the param, and records nothing', async () => {
    const body = `{"event":"payment","user_id":"deep-1","x":${deepText(50)}}`
    expect(body.length).toBeLessThan(400)
    const res = await post('/v1/score', body)
    expect(res.statusCode).toBe(400)
    expect(res.json().error).toMatchObject({ type: 'invalid_request_error', code: 'parameter_invalid', trace_id: expect.stringMatching(/^trc_/) })
    // Over the free-form depth but under the raw-text bound: the param names the path.
    const six = await post('/v1/score', { event: 'payment', user_id: 'deep-1', x: nest(LIMITS.freeFormDepth + 1) })
    expect(six.json().error).toMatchObject({ code: 'parameter_invalid', param: 'x.a.a.a.a.a' })
    expect((await post('/v1/score', { event: 'payment', metadata: nest(LIMITS.freeFormDepth + 2) })).json().error.param).toMatch(/^metadata\./)
    expect((await post('/v1/score', { event: 'payment', geo: { p: nest(LIMITS.freeFormDepth + 1) } })).json().error.param).toMatch(/^geo\.p/)
    expect(await userCount('deep-1')).toBe(0)
  })

  it('refuses values nested 3,000 deep inside 64 KiB with 400, not 500, on every route', async () => {
    const metadata = `{"event":"payment","metadata":${deepText(3000)}}`
    expect((await post('/v1/score', metadata)).statusCode).toBe(400)
    expect((await post('/v1/rules', `{"id":"r","name":"n","expression":"true","action":"flag","description":${deepText(3000)}}`)).statusCode).toBe(400)
  })

  it('refuses too many keys, long strings, long keys, big arrays, 1e309, NUL and lone surrogates', async () => {
    const wide = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, Object.fromEntries(Array.from({ length: 95 }, (_, j) => [`f${j}`, j]))]))
    expect((await post('/v1/score', { event: 'payment', ...wide })).json().error.message).toContain(`${LIMITS.totalKeys} keys`)
    expect((await post('/v1/score', { event: 'payment', note: 'x'.repeat(LIMITS.stringLength + 1) })).json().error.param).toBe('note')
    expect((await post('/v1/score', { event: 'payment', bag: { ['k'.repeat(LIMITS.keyLength + 1)]: 1 } })).json().error.code).toBe('parameter_invalid')
    expect((await post('/v1/score', { event: 'payment', list: Array.from({ length: LIMITS.arrayItems + 1 }, () => 1) })).json().error.param).toBe('list')
    for (const [where, body] of [['custom', '{"event":"payment","x":1e309}'], ['geo', '{"event":"payment","geo":{"lat":1e309}}'], ['account_created', '{"event":"payment","account_created":-1e309}']]) {
      const res = await post('/v1/score', body!)
      expect(res.statusCode, where).toBe(400)
      expect(res.json().error.message, where).toMatch(/finite/)
    }
    const nul = await post('/v1/score', '{"event":"payment","user_id":"a\\u0000b"}')
    expect(nul.json().error).toMatchObject({ code: 'parameter_invalid', param: 'user_id' })
    expect((await post('/v1/score', '{"event":"payment","custom_k\\u0000":"v"}')).statusCode).toBe(400)
    expect((await post('/v1/score', '{"event":"payment","name":"\\ud800"}')).json().error.param).toBe('name')
    expect((await post('/v1/score', '{"event":"payment","__proto__":{"x":1}}')).json().error.code).toBe('invalid_json')
    // Unicode that is valid passes, emoji and all.
    expect((await post('/v1/score', { event: 'payment', user_id: 'ユーザー-😀', note: 'café' })).statusCode).toBe(200)
  })

  it('accepts a request at every limit, and its record survives the Protobuf round trip the stream makes', async () => {
    const body = { event: 'payment', user_id: 'edge-1', deep: nest(LIMITS.freeFormDepth - 1, ['x', 1, null, true]), metadata: { m: nest(LIMITS.freeFormDepth - 1, 's'.repeat(100)) }, geo: { country: 'FR', lat: 1.7976931348623157e308 } }
    const res = await post('/v1/score', body)
    expect(res.statusCode).toBe(200)
    const tx = (await app.server.inject({ method: 'GET', url: `/v1/transactions/${res.json().trace_id}`, headers: auth() })).json()
    const record = { trace_id: tx.trace_id, tenant_id: 't', livemode: false, created_ms: 1, request: tx.request, decision: tx.decision, ruleset_version: 'rs_0', model_version: 'm', features: {}, base_action: 'approve', override_gate: null, rule_errors: [], rollout_buckets: {}, origin_id: 'o', origin_seq: 1 } as TransactionRecord
    expect(decodeEvent(encodeEvent(record)).request).toEqual(tx.request)
  })
})

describe('POST /v1/score/batch: validated whole, recorded all or nothing', () => {
  it('refuses a batch with one event nested 3,000 deep before recording any of the others', async () => {
    const valid = Array.from({ length: 10 }, () => JSON.stringify({ event: 'payment', user_id: 'half-1', amount: 5 }))
    const body = `{"events":[${[...valid, `{"event":"payment","x":${deepText(3000)}}`].join(',')}]}`
    const res = await post('/v1/score/batch', body, { 'idempotency-key': 'half-batch-1' })
    expect(res.statusCode).toBe(400)
    const retry = await post('/v1/score/batch', body, { 'idempotency-key': 'half-batch-1' })
    expect(retry.statusCode).toBe(400)
    expect(await userCount('half-1')).toBe(0)
  })

  it('applies the per-event limits inside a batch (64 KiB, depth) as per-event errors', async () => {
    const events = [
      { event: 'payment', user_id: 'limits-1' },
      { event: 'payment', user_id: 'limits-1', blob: 'x'.repeat(8000), more: Array.from({ length: 30 }, () => 'y'.repeat(8000)).slice(0, 9) },
      { event: 'payment', user_id: 'limits-1', x: nest(LIMITS.freeFormDepth + 1) }
    ]
    const { data } = (await post('/v1/score/batch', { events })).json()
    expect(data[0].trace_id).toMatch(/^trc_/)
    expect(data[1].error).toMatchObject({ code: 'event_too_large', param: 'events.1' })
    expect(data[2].error).toMatchObject({ code: 'parameter_invalid', param: 'events.2.x.a.a.a.a.a' })
    expect(await userCount('limits-1')).toBe(1)
  })

  it('records nothing when the write fails, takes the velocity increments back, and a retry records each decision once', async () => {
    const events = Array.from({ length: 10 }, (_, i) => ({ event: 'payment', user_id: 'atomic-1', amount: i + 1 }))
    const committer = app.state.committer
    const commit = committer.commit.bind(committer)
    // The batch's own write fails (one holding outbox entries), not a checkpoint a consumer commits meanwhile.
    committer.commit = async ops => {
      if (!ops.some(op => op.key.toString('latin1', 0, 1) === TAG.outbox)) return commit(ops)
      committer.commit = commit
      throw new Error('disk full')
    }
    const failed = await post('/v1/score/batch', { events }, { 'idempotency-key': 'atomic-batch' })
    expect(failed.statusCode).toBe(500)
    expect(await userCount('atomic-1')).toBe(0)
    const retried = await post('/v1/score/batch', { events }, { 'idempotency-key': 'atomic-batch' })
    expect(retried.json().data).toHaveLength(10)
    const replayed = await post('/v1/score/batch', { events }, { 'idempotency-key': 'atomic-batch' })
    expect(replayed.headers['idempotent-replayed']).toBe('true')
    // The probe above, then the ten of the batch.
    expect(await userCount('atomic-1')).toBe(11)
    // Each decision of the batch saw the ones before it.
    const features = await Promise.all(retried.json().data.map(async (d: { trace_id: string }) =>
      (await app.server.inject({ method: 'GET', url: `/v1/transactions/${d.trace_id}`, headers: auth() })).json().evaluation.features.user_count_1h))
    expect(features).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
  })
})

describe('rule expressions', () => {
  it('refuses 3,990 `!` and 40 nested brackets with 400 on expression, before the checker runs', async () => {
    for (const expression of ['!'.repeat(3990) + 'true', '('.repeat(40) + 'true' + ')'.repeat(40)]) {
      const res = await post('/v1/rules', { id: 'deep_rule', name: 'n', expression, action: 'flag' })
      expect(res.statusCode).toBe(400)
      expect(res.json().error).toMatchObject({ code: 'parameter_invalid', param: 'expression' })
      expect(res.json().error.message).toMatch(/line 1, column \d+/)
    }
    expect((await post('/v1/rules', { id: 'ok_rule', name: 'n', expression: '!!(request.amount > -1.0)', action: 'flag', status: 'disabled' })).statusCode).toBe(200)
  })
})

describe('errors before any route runs keep the envelope and X-Trace-Id', () => {
  it('bad percent-encoding (400) and over-long path parameters (414)', async () => {
    const bad = await app.server.inject({ method: 'GET', url: '/v1/transactions/%E0%A4%A', headers: auth() })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().error).toMatchObject({ code: 'invalid_url', trace_id: bad.headers['x-trace-id'] })
    const long = await app.server.inject({ method: 'GET', url: `/v1/transactions/${'t'.repeat(200)}`, headers: auth() })
    expect(long.statusCode).toBe(414)
    expect(long.json().error).toMatchObject({ code: 'url_too_long', trace_id: long.headers['x-trace-id'] })
  })

  it('100 KB headers (431) and a malformed request (400) on a real socket', async () => {
    const address = await app.server.listen({ port: 0, host: '127.0.0.1' })
    const port = Number(new URL(address).port)
    const raw = (request: string) => new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.end(request))
      let out = ''
      socket.on('data', chunk => { out += chunk.toString() })
      socket.on('close', () => resolve(out))
      // The server answers and closes while a 100 KB request is still being written: Node 24 reports the
      // reset of that unfinished write after the answer has arrived.
      socket.on('error', err => { if (out !== '') resolve(out); else reject(err) })
    })
    for (const [request, status, code] of [
      [`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(100_000)}\r\n\r\n`, 431, 'headers_too_large'],
      ['GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n', 400, 'malformed_request']
    ] as const) {
      const response = await raw(request)
      expect(response.startsWith(`HTTP/1.1 ${status} `)).toBe(true)
      const traceId = /x-trace-id: (\S+)/i.exec(response)![1]
      const body = JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4))
      expect(body.error).toMatchObject({ type: 'invalid_request_error', code, trace_id: traceId })
    }
  })
})
