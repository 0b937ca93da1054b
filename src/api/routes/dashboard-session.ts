import type { FastifyInstance } from 'fastify'
import { MIN_PASSWORD_LENGTH, type DashboardAuth, type SignedIn } from '../../services/dashboard-auth.js'
import { clearSessionCookie, setSessionCookie } from '../dashboard-session.js'
import { dashboardUserResource } from './dashboard-users.js'

const credentials = {
  type: 'object',
  additionalProperties: false,
  required: ['email', 'password'],
  properties: { email: { type: 'string', minLength: 3, maxLength: 254 }, password: { type: 'string', minLength: 1, maxLength: 256 } }
}

const sessionResource = (s: SignedIn, idleMs: number, absoluteMs: number) => ({
  object: 'dashboard_session',
  user: dashboardUserResource(s.user),
  scopes: s.principal.scopes,
  csrf_token: s.session.csrf_token,
  idle_timeout_s: Math.floor(idleMs / 1000),
  expires_at: Math.floor((s.session.created_ms + absoluteMs) / 1000)
})

/**
 * The dashboard's own session endpoints under /dashboard/api: sign in (sets the HttpOnly session cookie),
 * the session (user, role's scopes, CSRF token), sign out, and the first admin's setup. Everything else the
 * dashboard shows comes from the /v1 API with the session in place of a key. Not in the OpenAPI document: they are
 * the dashboard's own, not the API's (test/api/dashboard-auth.test.ts covers them).
 */
export function dashboardSessionRoutes (app: FastifyInstance, dashboard: DashboardAuth): void {
  const { idleMs, absoluteMs } = dashboard.limits
  app.post<{ Body: { email: string, password: string } }>('/dashboard/api/login', { schema: { hide: true, body: credentials } }, async (request, reply) => {
    const { secret, signedIn } = await dashboard.signIn(request.body.email, request.body.password, request.ip, request.id)
    setSessionCookie(request, reply, secret, Math.floor(absoluteMs / 1000))
    return sessionResource(signedIn, idleMs, absoluteMs)
  })

  app.get('/dashboard/api/session', { config: { session: true }, schema: { hide: true } }, async request => sessionResource(request.signedIn!, idleMs, absoluteMs))

  app.post('/dashboard/api/logout', { config: { session: true }, schema: { hide: true } }, async (request, reply) => {
    await dashboard.signOut(request.signedIn!, request.id)
    clearSessionCookie(reply)
    return { object: 'dashboard_session', ended: true }
  })

  app.post<{ Body: { token: string, email: string, name: string, password: string } }>('/dashboard/api/setup', {
    schema: {
      hide: true,
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['token', 'email', 'name', 'password'],
        properties: {
          token: { type: 'string', minLength: 1, maxLength: 200 },
          email: { type: 'string', pattern: '^[^@\\s\\u0000]+@[^@\\s\\u0000]+$', maxLength: 254 },
          name: { type: 'string', minLength: 1, maxLength: 200 },
          password: { type: 'string', minLength: MIN_PASSWORD_LENGTH, maxLength: 256 }
        }
      }
    }
  }, async request => {
    const { token, ...user } = request.body
    return dashboardUserResource(await dashboard.setUp(token, user, request.id))
  })
}
