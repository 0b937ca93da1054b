import type { DashboardSession } from '../records/dashboard-sessions.js'

export interface SessionLimits {
  /** A session unused this long is over. */
  idleMs: number
  /** A session is over this long after sign-in, used or not. */
  absoluteMs: number
}

/** Why a session no longer signs anyone in, or undefined while it does. */
export function sessionEnded (s: DashboardSession, lastSeenMs: number, nowMs: number, limits: SessionLimits): 'logged_out' | 'idle' | 'expired' | undefined {
  if (s.ended_ms !== null) return 'logged_out'
  if (nowMs - s.created_ms >= limits.absoluteMs) return 'expired'
  if (nowMs - Math.max(s.seen_ms, lastSeenMs) >= limits.idleMs) return 'idle'
  return undefined
}

/** Whether a request at `nowMs` should record the session as seen: a quarter of the idle timeout after the last record. */
export const needsTouch = (s: DashboardSession, nowMs: number, limits: SessionLimits): boolean => nowMs - s.seen_ms >= limits.idleMs / 4
