import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { LIMITS } from '../src/api/input-limits.js'
import { auth, startTestApp } from './support/app.js'

/**
 * What the OpenAPI document says against what the service does (the failures of the schemathesis run of
 * test/schemathesis/run.sh, each as a regression test).
 */
let app: App
type Method = 'GET' | 'POST' | 'DELETE' | 'PATCH' | 'PUT' | 'HEAD' | 'OPTIONS' | 'TRACE' | 'QUERY'
const call = (method: Method, url: string, payload?: object | string, headers: Record<string, string> = {}) =>
  app.server.inject({
    method: method as 'GET',
    url,
    headers: { ...auth(), ...(payload === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(payload === undefined ? {} : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) })
  })
let doc: any
const body = (path: string, method = 'post') => doc.paths[path][method].requestBody.content['application/json'].schema

beforeAll(async () => {
  app = await startTestApp()
  doc = (await app.server.inject({ method: 'GET', url: '/v1/openapi.json' })).json()
})
afterAll(async () => { await app.close() })

describe('a known path with another method: 405 method_not_allowed with Allow', () => {
  it('answers 405, the envelope, X-Trace-Id and the route\u2019s methods, for public and authenticated paths alike', async () => {
    for (const [method, url, allow] of [
      ['TRACE', '/healthz', 'GET, HEAD'],
      ['DELETE', '/v1/score', 'POST'],
      ['PATCH', '/v1/cases', 'GET, HEAD, POST'],
      ['PUT', '/v1/webhooks/we_1', 'DELETE, GET, HEAD, POST'],
      ['POST', '/v1/transactions/trc_1?x=1', 'GET, HEAD'],
      // The route the path names, as the router prefers it: /v1/rules/rollout, not /v1/rules/:id.
      ['TRACE', '/v1/rules/rollout', 'POST'],
      ['DELETE', '/v1/lists/deny_emails/items', 'POST']
    ] as const) {
      const res = await call(method, url)
      expect(res.statusCode, `${method} ${url}`).toBe(405)
      expect(res.headers.allow, `${method} ${url}`).toBe(allow)
      expect(res.json().error).toMatchObject({ type: 'invalid_request_error', code: 'method_not_allowed', trace_id: res.headers['x-trace-id'] })
    }
  })

  it('decides before the body is read: a QUERY with a body but no Content-Type, or with a broken body, is 405', async () => {
    const noType = await app.server.inject({ method: 'QUERY' as 'GET', url: '/v1/cases/case_1', headers: auth(), payload: 'x' })
    expect(noType.statusCode).toBe(405)
    expect(noType.headers.allow).toBe('GET, HEAD')
    const broken = await call('QUERY', '/v1/keys/key_1', '{not json')
    expect(broken.statusCode).toBe(405)
    expect(broken.json().error.code).toBe('method_not_allowed')
  })

  it('keeps 404 resource_missing for a path no route has, and the routes\u2019 own answers', async () => {
    for (const [method, url] of [['GET', '/v1/nope'], ['TRACE', '/v1/cases/c/nope'], ['DELETE', '/v1/score/']] as const) {
      const res = await call(method, url)
      expect(res.statusCode, `${method} ${url}`).toBe(404)
      expect(res.json().error.code).toBe('resource_missing')
    }
    expect((await call('GET', '/healthz')).statusCode).toBe(200)
    expect((await call('HEAD', '/healthz')).statusCode).toBe(200)
    expect((await call('GET', '/v1/cases/case_missing')).statusCode).toBe(404)
  })
})
