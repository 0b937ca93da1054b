import type { AddressInfo } from 'node:net'
import fastifyCookie from '@fastify/cookie'
import Fastify from 'fastify'
import { Agent, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setSessionCookie } from '../../src/api/dashboard-session.js'
import { issue, makeCa } from '../support/certs.js'
import type { App } from '../../src/app/app.js'
import { auditEntries } from '../../src/stores/audit.js'
import { findDashboardUsersByEmail } from '../../src/stores/dashboard-users.js'
import { LOCKOUT_MS, MAX_FAILED_LOGINS } from '../../src/services/login-throttle.js'
import { auth, startTestApp } from '../support/app.js'

let app: App
let now = Date.parse('2026-11-24T12:00:00Z')
const PASSWORD = 'correct horse battery'

interface Session { cookie: string, csrf: string }
const inject = (method: 'GET' | 'POST', url: string, options: { payload?: object, session?: Session, headers?: Record<string, string>, csrf?: boolean } = {}) =>
  app.server.inject({
    method,
    url,
    headers: {
      ...(options.session === undefined ? {} : { cookie: options.session.cookie, ...(options.csrf === false ? {} : { 'x-csrf-token': options.session.csrf }) }),
      ...options.headers
    },
    ...(options.payload === undefined ? {} : { payload: options.payload })
  })

async function signIn (email: string, password = PASSWORD, address = '10.0.0.1'): Promise<Session> {
  const res = await app.server.inject({ method: 'POST', url: '/dashboard/api/login', payload: { email, password }, remoteAddress: address })
  expect(res.statusCode, res.body).toBe(200)
  const cookie = res.cookies.find(c => c.name === 'fds_session')!
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' })
  return { cookie: `fds_session=${cookie.value}`, csrf: res.json().csrf_token }
}

let admin: Session

beforeAll(async () => {
  app = await startTestApp({}, { clock: () => now })
  const token = await app.dashboard.issueSetupToken(app.identity.defaultTenant)
  expect(token).toBeDefined()
  // A newer link replaces the older one.
  const older = token!
  const setupToken = (await app.dashboard.issueSetupToken(app.identity.defaultTenant))!
  expect((await inject('POST', '/dashboard/api/setup', { payload: { token: older, email: 'x@example.com', name: 'X', password: PASSWORD } })).json().error.code).toBe('invalid_setup_token')
  const created = await inject('POST', '/dashboard/api/setup', { payload: { token: setupToken, email: 'Admin@Example.com', name: 'Ada', password: PASSWORD } })
  expect(created.json()).toMatchObject({ object: 'dashboard_user', email: 'admin@example.com', role: 'admin', status: 'active' })
  expect((await inject('POST', '/dashboard/api/setup', { payload: { token: setupToken, email: 'y@example.com', name: 'Y', password: PASSWORD } })).json().error.code).toBe('invalid_setup_token')
  expect(await app.dashboard.issueSetupToken(app.identity.defaultTenant)).toBeUndefined()
  admin = await signIn('admin@example.com')
})
afterAll(async () => { await app.close() })

describe('dashboard identity', () => {
  it('keeps only an argon2id hash of the password and never shows it', async () => {
    const [user] = await findDashboardUsersByEmail(app.state, 'admin@example.com')
    expect(user!.password_hash).toMatch(/^\$argon2id\$/)
    const listed = (await inject('GET', '/v1/dashboard_users', { session: admin })).json()
    expect(listed.data).toHaveLength(1)
    expect(JSON.stringify(listed)).not.toContain('argon2')
  })

  it('acts through the API with the role\'s scopes, per mode, with the user as the audited actor', async () => {
    const analyst = (await inject('POST', '/v1/dashboard_users', { session: admin, payload: { email: 'ana@example.com', name: 'Ana', role: 'analyst', password: PASSWORD } })).json()
    const viewer = (await inject('POST', '/v1/dashboard_users', { session: admin, payload: { email: 'vic@example.com', name: 'Vic', role: 'viewer', password: PASSWORD } })).json()
    expect(viewer.role).toBe('viewer')
    const ana = await signIn('ana@example.com')
    const vic = await signIn('vic@example.com')

    // A sandbox case, opened by the analyst through the REST route with the session instead of a key.
    const opened = await inject('POST', '/v1/cases', { session: ana, payload: { subjects: { user_id: 'u-dash' } } })
    expect(opened.statusCode, opened.body).toBe(200)
    const caseId = opened.json().id
    expect((await inject('GET', `/v1/cases/${caseId}`, { session: vic })).statusCode).toBe(200)
    // Live and sandbox stay apart: the live view does not find it.
    expect((await inject('GET', `/v1/cases/${caseId}`, { session: vic, headers: { 'x-dashboard-mode': 'live' } })).statusCode).toBe(404)
    // A viewer reads only; an analyst does not manage keys or users.
    const refused = await inject('POST', `/v1/cases/${caseId}/disposition`, { session: vic, payload: { outcome: 'fraud', analyst: 'vic' } })
    expect(refused.statusCode).toBe(403)
    expect(refused.json().error).toMatchObject({ type: 'permission_error', code: 'insufficient_scope' })
    expect((await inject('GET', '/v1/keys', { session: ana })).json().error.code).toBe('insufficient_scope')
    expect((await inject('POST', '/v1/dashboard_users', { session: ana, payload: { email: 'z@example.com', name: 'Z', role: 'admin', password: PASSWORD } })).statusCode).toBe(403)

    const disposed = await inject('POST', `/v1/cases/${caseId}/disposition`, { session: ana, payload: { outcome: 'fraud', analyst: 'ana' } })
    expect(disposed.statusCode, disposed.body).toBe(200)
    await app.auditEntries.catchUp()
    const entries = await auditEntries(app.state, { tenant: app.identity.defaultTenant, mode: 'test' }, { objectId: caseId })
    expect(entries.some(e => e.actor === analyst.id && e.action === 'case.disposition')).toBe(true)
    const session = (await inject('GET', '/dashboard/api/session', { session: ana })).json()
    expect(session).toMatchObject({ object: 'dashboard_session', user: { id: analyst.id, role: 'analyst' } })
    expect(session.scopes).toContain('cases:write')
    expect(session.scopes).not.toContain('keys:manage')
  })

  it('refuses a change without the CSRF token or from another origin', async () => {
    const payload = { subjects: { user_id: 'u-csrf' } }
    const noToken = await inject('POST', '/v1/cases', { session: admin, payload, csrf: false })
    expect(noToken.statusCode).toBe(403)
    expect(noToken.json().error.code).toBe('csrf_failed')
    const crossOrigin = await inject('POST', '/v1/cases', { session: admin, payload, headers: { origin: 'https://evil.example', host: 'localhost:80' } })
    expect(crossOrigin.json().error.code).toBe('csrf_failed')
    const crossSite = await inject('POST', '/v1/cases', { session: admin, payload, headers: { 'sec-fetch-site': 'cross-site' } })
    expect(crossSite.json().error.code).toBe('csrf_failed')
    expect((await inject('POST', '/v1/cases', { session: admin, payload, headers: { origin: 'http://localhost:80', host: 'localhost:80', 'sec-fetch-site': 'same-origin' } })).statusCode).toBe(200)
    // Reads need no token.
    expect((await inject('GET', '/v1/cases', { session: admin, csrf: false })).statusCode).toBe(200)
  })

  it('ends sessions at logout, when idle and at the absolute limit', async () => {
    const { idleMs, absoluteMs } = app.dashboard.limits
    const s1 = await signIn('admin@example.com')
    expect((await inject('POST', '/dashboard/api/logout', { session: s1 })).statusCode).toBe(200)
    expect((await inject('GET', '/dashboard/api/session', { session: s1 })).json().error.code).toBe('session_required')

    const s2 = await signIn('admin@example.com')
    now += idleMs - 1000
    expect((await inject('GET', '/dashboard/api/session', { session: s2 })).statusCode).toBe(200)
    now += idleMs - 1000
    expect((await inject('GET', '/dashboard/api/session', { session: s2 })).statusCode).toBe(200)
    now += idleMs
    expect((await inject('GET', '/dashboard/api/session', { session: s2 })).statusCode).toBe(401)

    const s3 = await signIn('admin@example.com')
    for (let t = 0; t < absoluteMs; t += idleMs / 2) {
      now += idleMs / 2
      if (t + idleMs / 2 < absoluteMs) expect((await inject('GET', '/dashboard/api/session', { session: s3 })).statusCode).toBe(200)
    }
    expect((await inject('GET', '/dashboard/api/session', { session: s3 })).statusCode).toBe(401)
    admin = await signIn('admin@example.com')
  })

  it('locks an email after repeated failures, throttles an address, and audits both', async () => {
    const user = (await inject('POST', '/v1/dashboard_users', { session: admin, payload: { email: 'lock@example.com', name: 'L', role: 'viewer', password: PASSWORD } })).json()
    for (let i = 0; i < MAX_FAILED_LOGINS; i++) {
      const res = await app.server.inject({ method: 'POST', url: '/dashboard/api/login', payload: { email: 'lock@example.com', password: 'wrong password!' }, remoteAddress: `10.1.0.${i}` })
      expect(res.json().error.code).toBe('invalid_credentials')
    }
    const locked = await app.server.inject({ method: 'POST', url: '/dashboard/api/login', payload: { email: 'lock@example.com', password: PASSWORD }, remoteAddress: '10.1.1.1' })
    expect(locked.statusCode).toBe(429)
    expect(locked.json().error.code).toBe('login_throttled')
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0)
    now += LOCKOUT_MS
    await signIn('lock@example.com', PASSWORD, '10.1.1.2')

    // An unknown email gets the same answer as a wrong password.
    const unknown = await app.server.inject({ method: 'POST', url: '/dashboard/api/login', payload: { email: 'nobody@example.com', password: PASSWORD }, remoteAddress: '10.2.0.1' })
    expect(unknown.json().error).toMatchObject({ type: 'authentication_error', code: 'invalid_credentials', message: 'Wrong email or password.' })
    // One address: 10 attempts, then throttled whatever the email.
    const codes: string[] = []
    for (let i = 0; i < 11; i++) {
      codes.push((await app.server.inject({ method: 'POST', url: '/dashboard/api/login', payload: { email: `n${i}@example.com`, password: 'x' }, remoteAddress: '10.3.0.1' })).json().error.code)
    }
    expect(codes.slice(0, 10).every(c => c === 'invalid_credentials')).toBe(true)
    expect(codes[10]).toBe('login_throttled')

    await app.auditEntries.catchUp()
    const actions = (await auditEntries(app.state, { tenant: app.identity.defaultTenant, mode: 'live' }, { objectId: user.id })).map(e => e.action)
    expect(actions[0]).toBe('dashboard_user.created')
    expect(actions).toContain('dashboard_user.locked')
    expect(actions).toContain('dashboard_user.login_failed')
    expect(actions).toContain('dashboard_user.logged_in')
  })

  it('never lets a key or user grant a role with scopes it lacks, and takes an email once', async () => {
    const key = (await app.server.inject({ method: 'POST', url: '/v1/keys', headers: auth(), payload: { name: 'users only', scopes: ['users:manage'] } })).json()
    const res = await app.server.inject({ method: 'POST', url: '/v1/dashboard_users', headers: auth(key.secret), payload: { email: 'esc@example.com', name: 'E', role: 'admin', password: PASSWORD } })
    expect(res.statusCode).toBe(403)
    expect(res.json().error.param).toBe('role')
    const taken = await inject('POST', '/v1/dashboard_users', { session: admin, payload: { email: 'ANA@example.com', name: 'A2', role: 'viewer', password: PASSWORD } })
    expect(taken.json().error).toMatchObject({ code: 'resource_exists', param: 'email' })
    const short = await inject('POST', '/v1/dashboard_users', { session: admin, payload: { email: 'short@example.com', name: 'S', role: 'viewer', password: 'short' } })
    expect(short.json().error).toMatchObject({ code: 'parameter_invalid', param: 'password' })
    expect(short.json().error.message).toContain('12')
  })
})

describe('the session cookie under TLS', () => {
  it('is Secure when the request came over HTTPS, and not over plain HTTP', async () => {
    const ca = await makeCa('Dashboard test CA')
    const tls = await issue(ca, 'localhost', 'server')
    const server = Fastify({ https: { cert: tls.cert, key: tls.key } })
    await server.register(fastifyCookie)
    server.get('/', async (request, reply) => { setSessionCookie(request, reply, 'secret', 60); return {} })
    await server.listen({ host: '127.0.0.1', port: 0 })
    try {
      const port = (server.server.address() as AddressInfo).port
      const res = await request(`https://127.0.0.1:${port}/`, { dispatcher: new Agent({ connect: { ca: ca.cert, servername: 'localhost' } }) })
      await res.body.text()
      expect(String(res.headers['set-cookie'])).toContain('Secure')
    } finally {
      await server.close()
    }
    const plain = await app.server.inject({ method: 'POST', url: '/dashboard/api/login', payload: { email: 'admin@example.com', password: PASSWORD }, remoteAddress: '10.9.0.1' })
    expect(String(plain.headers['set-cookie'])).not.toContain('Secure')
  })
})
