import { writeFileSync } from 'node:fs'
import https from 'node:https'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { issue, makeCa, type Issued } from '../support/certs.js'
import { auth, createTenant, LIVE_KEY, startTestApp, tempDir, TEST_KEY } from '../support/app.js'

let app: App
let serverCa: string
let client: Issued
let rogue: Issued
let tenantCa: string

function request (pathname: string, options: { cert?: Issued, key?: string, body?: object }): Promise<{ status: number, body: any }> {
  const url = new URL(pathname, app.mtlsAddress!)
  return new Promise((resolve, reject) => {
    const req = https.request(url, {
      method: options.body === undefined ? 'GET' : 'POST',
      ca: serverCa,
      servername: 'localhost',
      ...(options.cert === undefined ? {} : { cert: options.cert.cert, key: options.cert.key }),
      headers: { ...(options.key === undefined ? {} : { authorization: `Bearer ${options.key}` }), ...(options.body === undefined ? {} : { 'content-type': 'application/json' }) }
    }, res => {
      let data = ''
      res.on('data', c => { data += c })
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(data) }))
    })
    req.on('error', reject)
    req.end(options.body === undefined ? undefined : JSON.stringify(options.body))
  })
}

beforeAll(async () => {
  const dir = tempDir('fds-mtls-')
  const sca = await makeCa('Service CA')
  const server = await issue(sca, 'localhost', 'server')
  writeFileSync(path.join(dir, 'server.pem'), server.cert)
  writeFileSync(path.join(dir, 'server.key'), server.key)
  serverCa = sca.cert
  const tca = await makeCa('Tenant client CA')
  tenantCa = tca.cert
  client = await issue(tca, 'checkout-service', 'client')
  rogue = await issue(await makeCa('Someone else'), 'intruder', 'client')
  app = await startTestApp({ MTLS_PORT: '0', MTLS_CERT_FILE: path.join(dir, 'server.pem'), MTLS_KEY_FILE: path.join(dir, 'server.key') })
})
afterAll(async () => { await app.close() })

describe('mutual TLS listener', () => {
  it('requires a client certificate from the tenant\u2019s uploaded CA, and the API key still', async () => {
    expect((await request('/v1/score', { cert: client, key: TEST_KEY, body: { event: 'login' } })).body.error.code).toBe('mtls_not_configured')
    const bad = await app.server.inject({ method: 'POST', url: '/v1/mtls/client_ca', headers: auth(), payload: { certificate: client.cert } })
    expect(bad.json().error).toMatchObject({ code: 'parameter_invalid', param: 'certificate' })
    const uploaded = await app.server.inject({ method: 'POST', url: '/v1/mtls/client_ca', headers: auth(), payload: { certificate: tenantCa } })
    expect(uploaded.json()).toMatchObject({ object: 'client_ca', subject: 'CN=Tenant client CA', server_certificate_sha256: expect.stringMatching(/^[0-9A-F:]+$/) })

    const ok = await request('/v1/score', { cert: client, key: TEST_KEY, body: { event: 'login', user_id: 'u-mtls' } })
    expect(ok.status).toBe(200)
    expect(ok.body.trace_id).toMatch(/^trc_/)
    expect((await request('/v1/score', { key: TEST_KEY, body: { event: 'login' } })).body.error.code).toBe('client_certificate_required')
    expect((await request('/v1/score', { cert: rogue, key: TEST_KEY, body: { event: 'login' } })).body.error.code).toBe('client_certificate_invalid')
    expect((await request('/v1/score', { cert: client, body: { event: 'login' } })).body.error.code).toBe('missing_key')
    const otherTenant = (await createTenant(app)).keys.test
    expect((await request('/v1/score', { cert: client, key: otherTenant, body: { event: 'login' } })).body.error.code).toBe('mtls_not_configured')
    // Client CAs are per mode: the sandbox upload above configures nothing for live keys, and a live upload
    // leaves the sandbox CA as it was.
    expect((await request('/v1/score', { cert: client, key: LIVE_KEY, body: { event: 'login' } })).body.error.code).toBe('mtls_not_configured')
    expect((await app.server.inject({ method: 'GET', url: '/v1/mtls/client_ca', headers: auth(LIVE_KEY) })).statusCode).toBe(404)
    const other = await makeCa('Live client CA')
    expect((await app.server.inject({ method: 'POST', url: '/v1/mtls/client_ca', headers: auth(LIVE_KEY), payload: { certificate: other.cert } })).statusCode).toBe(200)
    expect((await request('/v1/score', { cert: client, key: LIVE_KEY, body: { event: 'login' } })).body.error.code).toBe('client_certificate_invalid')
    expect((await request('/v1/score', { cert: client, key: TEST_KEY, body: { event: 'login' } })).status).toBe(200)
    expect((await app.server.inject({ method: 'GET', url: '/v1/mtls/client_ca', headers: auth() })).json().subject).toBe('CN=Tenant client CA')
    // The plain listener is unchanged: no client certificate needed there.
    expect((await app.server.inject({ method: 'POST', url: '/v1/score', headers: auth(), payload: { event: 'login' } })).statusCode).toBe(200)
  })
})

describe('OpenAPI', () => {
  it('serves an OpenAPI 3.1 document generated from the route schemas, and a docs page', async () => {
    const doc = (await app.server.inject({ method: 'GET', url: '/v1/openapi.json' })).json()
    expect(doc.openapi).toBe('3.1.0')
    for (const p of ['/v1/score', '/v1/score/batch', '/v1/rules', '/v1/cases/{id}/disposition', '/v1/webhooks', '/v1/keys', '/v1/audit']) expect(Object.keys(doc.paths)).toContain(p)
    const score = doc.paths['/v1/score'].post
    expect(score.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ScoreRequest' })
    expect(doc.components.schemas.ScoreRequest.required).toEqual(['event'])
    expect(score.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Decision' })
    expect(Object.keys(doc.components.schemas.Decision.properties)).toEqual(expect.arrayContaining(['score', 'risk_level', 'action', 'signals', 'rules', 'trace_id', 'latency_ms']))
    const docs = await app.server.inject({ method: 'GET', url: '/v1/docs/' })
    expect(docs.statusCode).toBe(200)
    expect(docs.headers['content-type']).toMatch(/text\/html/)
  })
})
