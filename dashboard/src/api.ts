/** The error envelope every API error comes in (docs/api.md). */
export interface ApiErrorBody { type: string, code: string, message: string, param?: string, trace_id?: string }

export type Result<T> = { ok: true, data: T } | { ok: false, status: number, error: ApiErrorBody }

export type Mode = 'live' | 'test'

export interface Session {
  object: 'dashboard_session'
  user: { id: string, email: string, name: string, role: 'admin' | 'analyst' | 'viewer' }
  scopes: string[]
  csrf_token: string
}

let csrfToken = ''
let mode: Mode = (localStorage.getItem('mode') as Mode | null) ?? 'test'

export const currentMode = () => mode
export function setMode (m: Mode): void { mode = m; localStorage.setItem('mode', m) }
export function setCsrfToken (token: string): void { csrfToken = token }

/**
 * Calls the service's API from the dashboard: same origin, the HttpOnly session cookie sent by the browser, the
 * mode shown in X-Dashboard-Mode, the session's CSRF token on every change. No API key ever reaches the page.
 */
export async function api<T> (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<Result<T>> {
  const headers: Record<string, string> = { 'x-dashboard-mode': mode }
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken
  if (body !== undefined) headers['content-type'] = 'application/json'
  let res: Response
  try {
    res = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) })
  } catch {
    return { ok: false, status: 0, error: { type: 'api_error', code: 'network', message: 'The service cannot be reached.' } }
  }
  const json = await res.json().catch(() => undefined) as { error?: ApiErrorBody } | undefined
  if (!res.ok) {
    if (res.status === 401 && !path.startsWith('/dashboard/api/login')) window.dispatchEvent(new Event('session-ended'))
    return { ok: false, status: res.status, error: json?.error ?? { type: 'api_error', code: 'unknown', message: `HTTP ${res.status}` } }
  }
  return { ok: true, data: json as T }
}

export const can = (session: Session | null, scope: string) => session?.scopes.includes(scope) === true

export const when = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString().replace('T', ' ').slice(0, 19) + ' UTC'
