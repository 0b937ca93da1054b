import type { Delivery } from '../records/webhook-deliveries.js'

/** How many of an endpoint's newest deliveries its health is judged on: a bounded read per endpoint shown. */
export const HEALTH_WINDOW = 20

/**
 * An endpoint's recent delivery health, judged on its newest deliveries (at most HEALTH_WINDOW):
 * - `failing`: none succeeded, and at least one failed or is being retried after a failed attempt;
 * - `degraded`: some succeeded, some failed or are being retried;
 * - `healthy`: some succeeded, none failed or retried;
 * - `idle`: nothing attempted yet (no deliveries, or only ones waiting for their first attempt).
 */
export interface EndpointHealth {
  state: 'healthy' | 'degraded' | 'failing' | 'idle'
  /** How many deliveries were looked at (the newest ones, at most HEALTH_WINDOW). */
  window: number
  succeeded: number
  /** Dead-lettered: every attempt failed. */
  failed: number
  /** Pending after at least one failed attempt. */
  retrying: number
  /** Pending, not attempted yet (a delivery just made, or a replay just queued). */
  waiting: number
  /** The newest successful attempt among them (ms), null when none succeeded. */
  last_success_ms: number | null
}

/** The health of an endpoint from its newest deliveries, newest first. Pure. */
export function endpointHealth (newestFirst: readonly Delivery[]): EndpointHealth {
  let succeeded = 0
  let failed = 0
  let retrying = 0
  let waiting = 0
  let lastSuccess: number | null = null
  for (const d of newestFirst) {
    if (d.status === 'succeeded') {
      succeeded++
      const at = d.attempts[d.attempts.length - 1]?.at_ms ?? d.created_ms
      lastSuccess = Math.max(lastSuccess ?? at, at)
    } else if (d.status === 'failed') failed++
    else if (d.attempts.length > 0) retrying++
    else waiting++
  }
  const troubled = failed + retrying
  const state = succeeded === 0 ? (troubled === 0 ? 'idle' : 'failing') : troubled === 0 ? 'healthy' : 'degraded'
  return { state, window: newestFirst.length, succeeded, failed, retrying, waiting, last_success_ms: lastSuccess }
}
