import { idLowerBound } from '../domain/ids.js'
import type { Scope } from '../domain/scope.js'
import type { EndpointHealth } from '../domain/webhooks/health.js'
import type { StateDb } from '../stores/state-db.js'
import { endpointHealthOf, failedUnreplayedIds, scanEndpoints } from '../stores/webhooks.js'

/** The endpoints the overview reads (a tenant has a handful; more are counted as not read). */
export const MAX_ENDPOINTS = 50
/** Dead letters counted per endpoint: beyond it the figure is a floor (`capped`). */
export const MAX_FAILED_COUNTED = 1000

const DAY_MS = 86_400_000

export interface WebhookFailures {
  endpoints: number
  /** Dead-lettered deliveries not replayed yet, over every endpoint read. */
  failed_not_replayed: number
  /** Of them, those created in the last 24 hours. */
  failed_last_24h: number
  /** Some endpoint had more dead letters than were counted (the figures are floors), or more endpoints than were read. */
  capped: boolean
  /** Endpoints whose newest deliveries fail (`failing`) or partly fail (`degraded`), the worst first. */
  troubled: Array<{ id: string, url: string, status: 'enabled' | 'disabled', health: EndpointHealth['state'], failed: number, retrying: number }>
}

/**
 * Failed webhook deliveries at a glance, for the overview: per endpoint one bounded reverse scan of its newest
 * deliveries (its health, as GET /v1/webhooks shows it) and of its dead letters not replayed yet (at most
 * MAX_FAILED_COUNTED): a bounded cost whatever the number of deliveries.
 */
export async function webhookFailures (state: StateDb, scope: Scope, nowMs: number): Promise<WebhookFailures> {
  const since = idLowerBound('dlv', nowMs - DAY_MS)
  const out: WebhookFailures = { endpoints: 0, failed_not_replayed: 0, failed_last_24h: 0, capped: false, troubled: [] }
  for await (const e of scanEndpoints(state, scope)) {
    if (out.endpoints === MAX_ENDPOINTS) { out.capped = true; break }
    out.endpoints++
    const health = await endpointHealthOf(state, scope, e.id)
    const failed = await failedUnreplayedIds(state, scope, e.id, MAX_FAILED_COUNTED + 1)
    if (failed.length > MAX_FAILED_COUNTED) { out.capped = true; failed.length = MAX_FAILED_COUNTED }
    out.failed_not_replayed += failed.length
    out.failed_last_24h += failed.filter(id => id >= since).length
    if (health.state === 'failing' || health.state === 'degraded') {
      out.troubled.push({ id: e.id, url: e.url, status: e.status, health: health.state, failed: health.failed, retrying: health.retrying })
    }
  }
  out.troubled.sort((a, b) => (a.health === b.health ? 0 : a.health === 'failing' ? -1 : 1) || b.failed - a.failed)
  return out
}
