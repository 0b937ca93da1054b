import type { LogRecord } from './log-record.js'

/**
 * A signed-in dashboard session, keyed by the SHA-256 of its cookie's secret (the secret itself is never
 * stored). `seen_ms` is refreshed at most every quarter of the idle timeout, so a session in use costs no write
 * per request; `ended_ms` is set by logout.
 */
export interface DashboardSession {
  id: string
  user_id: string
  tenant_id: string
  created_ms: number
  seen_ms: number
  /** Sent back by the browser in X-CSRF-Token on every change: a cross-site page cannot read it. */
  csrf_token: string
  ended_ms: number | null
}

/** A record of the compacted `dashboard-sessions` topic (key: the session id). */
export interface DashboardSessionChange { session: DashboardSession, change_id: string }

export const dashboardSessionChangeRecord = (c: DashboardSessionChange): LogRecord =>
  ({ key: c.session.id, value: Buffer.from(JSON.stringify(c)), headers: { tenant_id: c.session.tenant_id } })
