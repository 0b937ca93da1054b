import type { FastifyReply, FastifyRequest } from 'fastify'
import type { DashboardAuth, SignedIn } from '../services/dashboard-auth.js'
import { ApiError } from '../services/errors.js'

/** The dashboard's session cookie (HttpOnly, SameSite=Strict; Secure under TLS). */
export const SESSION_COOKIE = 'fds_session'
/** The header the dashboard names the mode it shows with (live or test; test when absent). */
export const MODE_HEADER = 'x-dashboard-mode'
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * The dashboard user a request's session cookie signs in, acting in the mode its X-Dashboard-Mode header names.
 * A change (any method but GET, HEAD, OPTIONS) must also come from the dashboard's own pages: no cross-site
 * Origin or Sec-Fetch-Site, and the session's CSRF token in X-CSRF-Token (OWASP's synchronizer token; the
 * SameSite=Strict cookie is a second line).
 */
export async function signedInOf (dashboard: DashboardAuth, request: FastifyRequest): Promise<SignedIn> {
  const secret = request.cookies[SESSION_COOKIE]
  const mode = request.headers[MODE_HEADER] ?? 'test'
  if (mode !== 'live' && mode !== 'test') throw new ApiError('parameter_invalid', `${MODE_HEADER} must be live or test.`, MODE_HEADER)
  const signedIn = secret === undefined ? undefined : await dashboard.authenticate(secret, mode)
  if (signedIn === undefined) throw new ApiError('session_required', 'Sign in to the dashboard (no session, or it ended).')
  if (!SAFE_METHODS.has(request.method)) {
    const origin = request.headers.origin
    const fetchSite = request.headers['sec-fetch-site']
    const sameOrigin = (origin === undefined || sameHost(origin, request.headers.host)) && (fetchSite === undefined || fetchSite === 'same-origin')
    if (!sameOrigin) throw new ApiError('csrf_failed', 'Cross-origin changes are refused.')
    const token = request.headers['x-csrf-token']
    if (!dashboard.csrfMatches(signedIn.session, typeof token === 'string' ? token : undefined)) {
      throw new ApiError('csrf_failed', 'Missing or wrong X-CSRF-Token: reload the dashboard.')
    }
  }
  return signedIn
}

const sameHost = (origin: string, host: string | undefined) => {
  try {
    const o = new URL(origin)
    return host !== undefined && new URL(`${o.protocol}//${host}`).host === o.host
  } catch { return false }
}

/** Sets the session cookie (Secure when the request came over TLS, directly or as a trusted proxy says). */
export function setSessionCookie (request: FastifyRequest, reply: FastifyReply, secret: string, maxAgeS: number): void {
  void reply.setCookie(SESSION_COOKIE, secret, { path: '/', httpOnly: true, sameSite: 'strict', secure: request.protocol === 'https', maxAge: maxAgeS })
}

export function clearSessionCookie (reply: FastifyReply): void {
  void reply.clearCookie(SESSION_COOKIE, { path: '/' })
}
