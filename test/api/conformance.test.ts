import { Ajv } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { LIMITS } from '../../src/services/input-limits.js'
import { auth, startTestApp } from '../support/app.js'

/**
 * What the OpenAPI document says against what the service does (the failures of the schemathesis run of
 * test/schemathesis/run.sh, each as a regression test).
 */
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv
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
/** A request body's schema, the named component it refers to when it has a name (ScoreRequest, Disposition, ...). */
const body = (path: string, method = 'post') => {
  const schema = doc.paths[path][method].requestBody.content['application/json'].schema
  return schema.$ref === undefined ? schema : doc.components.schemas[schema.$ref.slice('#/components/schemas/'.length)]
}

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
      ['TRACE', '/v1/rules/rollout', 'GET, HEAD, POST'],
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

/**
 * The document's request schema against the service: for each body, the schema accepts it exactly when the
 * service does (none of these bodies meets a business rule the schema cannot state).
 */
const requestValidator = (path: string) => {
  const ajv = addFormats(new Ajv({ strict: false, allErrors: false }))
  ajv.addSchema(doc, 'doc')
  const pointer = `/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/post/requestBody/content/application~1json/schema`
  return ajv.getSchema(`doc#${pointer}`)!
}
async function agrees (path: string, bodies: unknown[]): Promise<void> {
  const validate = requestValidator(path)
  for (const b of bodies) {
    const res = await call('POST', path, b as object)
    const documented = validate(b) === true
    expect(res.statusCode < 300, `POST ${path} ${JSON.stringify(b).slice(0, 200)}: ${res.body.slice(0, 300)} (documented ${documented})`).toBe(documented)
  }
}

describe('the document states what each route accepts', () => {
  it('POST /v1/score/batch: 1 to 500 events in the schema, with the answers the bounds always had', async () => {
    expect(body('/v1/score/batch').properties.events).toMatchObject({ type: 'array', minItems: 1, maxItems: 500 })
    const none = await call('POST', '/v1/score/batch', { events: [] })
    expect(none.json().error).toMatchObject({ code: 'parameter_invalid', param: 'events', message: 'A batch needs at least one event.' })
    const many = await call('POST', '/v1/score/batch', { events: Array.from({ length: 501 }, () => ({ event: 'login' })) })
    expect(many.json().error).toMatchObject({ code: 'batch_too_large', param: 'events', message: 'A batch holds at most 500 events; got 501.' })
    expect((await call('POST', '/v1/score/batch', { events: 'x' })).json().error).toMatchObject({ code: 'parameter_invalid', param: 'events' })
    expect((await call('POST', '/v1/score/batch', { events: [{ event: 'login' }], more: 1 })).json().error).toMatchObject({ code: 'parameter_unknown', param: 'more' })
    await agrees('/v1/score/batch', [{ events: [] }, { events: [{ event: 'login' }] }, { events: [1, 'x', null] }])
  })

  it('POST /v1/signals: the fields each type needs, and the address or range an ip_reputation entry takes', async () => {
    await agrees('/v1/signals', [
      { type: 'sim_swap', user_id: 'u-doc', confidence: 0.5 },
      { type: 'sim_swap', user_id: 'u-doc' },
      { type: 'sim_swap', confidence: 0.5 },
      { type: 'ip_reputation', ip: '0', score: 0 },
      { type: 'ip_reputation', ip: '203.0.113.0/24', score: 0.5 },
      { type: 'ip_reputation', ip: '203.0.113.0/33', score: 0.5 },
      { type: 'ip_reputation', ip: '2001:db8::/32', score: null },
      { type: 'ip_reputation', ip: '2001:db8::/129', score: 0.5 },
      { type: 'ip_reputation', ip: '::ffff:198.51.100.7', score: 1 },
      { type: 'ip_reputation', ip: '198.51.100.7' },
      { type: 'ip_reputation', score: 1 }
    ])
    expect((await call('POST', '/v1/signals', { type: 'ip_reputation', ip: '198.51.100.7' })).json().error).toMatchObject({ code: 'parameter_missing', param: 'score' })
    expect((await call('POST', '/v1/signals', { type: 'ip_reputation', ip: '0', score: 0 })).json().error).toMatchObject({ code: 'parameter_invalid', param: 'ip' })
  })

  it('POST /v1/cases: trace_id or subjects', async () => {
    expect(body('/v1/cases').anyOf).toEqual([{ required: ['trace_id'] }, { required: ['subjects'] }])
    expect((await call('POST', '/v1/cases', {})).json().error).toMatchObject({ code: 'parameter_missing', param: 'trace_id', message: "Give 'trace_id' or 'subjects'." })
    await agrees('/v1/cases', [{}, { reason: 'r' }, { subjects: { user_id: 'u-case-doc' } }])
  })

  it('POST /v1/webhooks and POST /v1/webhooks/{id}: an https:// URI without credentials', async () => {
    const events = ['case.created']
    await agrees('/v1/webhooks', [
      { url: '00000000', events },
      { url: 'http://example.com/hooks', events },
      { url: 'https://user:pw@example.com/hooks', events },
      { url: 'https:///hooks', events },
      { url: 'https://example.com/hooks@1', events }
    ])
    const created = (await call('POST', '/v1/webhooks', { url: 'https://example.com/doc', events })).json()
    const validate = requestValidator('/v1/webhooks/{id}')
    for (const url of ['00000000', 'http://example.com/x', 'https://example.com/y']) {
      const res = await call('POST', `/v1/webhooks/${created.id}`, { url })
      expect(res.statusCode < 300, url).toBe(validate({ url }))
    }
  })

  it('POST /v1/score: the free-form limits, keys of 1 to 128 characters (counted as the schema counts them)', async () => {
    const free = doc.components.schemas.FreeForm
    expect(free).toMatchObject({ maxLength: LIMITS.stringLength, maxItems: LIMITS.arrayItems, propertyNames: { minLength: 1, maxLength: LIMITS.keyLength } })
    for (const s of [body('/v1/score'), body('/v1/score').properties.geo, body('/v1/score').properties.metadata]) {
      expect(s.propertyNames).toMatchObject({ minLength: 1, maxLength: LIMITS.keyLength })
      expect(s.additionalProperties).toEqual({ $ref: '#/components/schemas/FreeForm' })
    }
    // Every reference resolves in the document: the route's own $defs were moved to components.schemas.
    expect(JSON.stringify(doc)).not.toContain('#/$defs/')
    await agrees('/v1/score', [
      { event: 'login', metadata: { '': 1 } },
      { event: 'login', geo: { ['g'.repeat(129)]: 1 } },
      { event: 'login', '': { '': {} } },
      { event: 'login', note: 'x'.repeat(LIMITS.stringLength + 1) },
      { event: 'login', note: '\u00e9'.repeat(LIMITS.stringLength) },
      { event: 'login', list: Array.from({ length: LIMITS.arrayItems + 1 }, () => 1) },
      { event: 'login', ['\u{1F600}'.repeat(LIMITS.keyLength)]: 1 },
      { event: 'login', metadata: { ['\u{1F600}'.repeat(LIMITS.keyLength)]: '\u{1F600}'.repeat(LIMITS.stringLength) } },
      { event: 'login', metadata: { ['\u{1F600}'.repeat(LIMITS.keyLength + 1)]: 1 } }
    ])
  })

  it('names a param under an empty key readably, the same way everywhere: metadata[""], [""] at the top', async () => {
    const error = async (payload: string) => (await call('POST', '/v1/score', payload)).json().error
    expect(await error('{"event":"login","metadata":{"":1}}')).toMatchObject({ code: 'parameter_invalid', param: 'metadata[""]' })
    expect(await error('{"event":"login","":{"":{}}}')).toMatchObject({ code: 'parameter_invalid', param: '[""]' })
    expect(await error('{"event":"login","x":{"":{"a":"\\u0000"}}}')).toMatchObject({ code: 'parameter_invalid', param: 'x[""].a' })
    expect(await error('{"event":"login","metadata":{"m":{"":1}}}')).toMatchObject({ code: 'parameter_invalid', param: 'metadata.m[""]' })
    const batch = (await call('POST', '/v1/score/batch', '{"events":[{"event":"login","geo":{"":1}}]}')).json()
    expect(batch.data[0].error).toMatchObject({ code: 'parameter_invalid', param: 'events.0.geo[""]' })
  })
})
