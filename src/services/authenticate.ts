import type { Core } from './core.js'
import { lookupApiKey } from '../stores/api-keys.js'
import { bearerSecret, principalFor, requireActiveTenant, requireScope, type Principal } from './auth.js'
import { rateLimitedError, type RateDecision, type RateLimiter } from './rate-limit.js'

export interface Authenticated { principal: Principal, limit: RateDecision }

/**
 * Every transport's gate (REST listeners and gRPC): the bearer key -> principal (revoked, expired and legacy
 * keys refused, a suspended tenant's too), one token from the key's rate-limit bucket, then the scope. `onLimit` receives the bucket
 * state even when the request is refused, so the caller can report it (X-RateLimit-* headers).
 */
export async function authenticate (core: Pick<Core, 'clock' | 'state' | 'tenantDirectory'>, limiter: RateLimiter, authorization: string | undefined, scope: string, onLimit: (limit: RateDecision) => void): Promise<Principal> {
  const now = core.clock()
  const principal = principalFor(await lookupApiKey(core.state, bearerSecret(authorization, now)), now)
  requireActiveTenant(principal, core.tenantDirectory)
  const limit = limiter.takeFor(principal, now, 1, core.tenantDirectory)
  onLimit(limit)
  if (!limit.allowed) throw rateLimitedError(limit)
  requireScope(principal, scope)
  return principal
}
