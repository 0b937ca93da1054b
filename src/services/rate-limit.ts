import { ApiError } from './errors.js'
import { LRUCache } from 'lru-cache'
import type { RateLimits } from '../stores/tenants.js'

/**
 * Token buckets, one per API key and one per tenant (all its keys together: a tenant mints keys, and would
 * otherwise multiply its rate by minting them): `rate` tokens per second, at most `burst` stored; each request
 * takes one from both, a batch one per event (`cost`, at most `burst`, so that any batch the bucket can hold can
 * pass). A request of several tokens that the bucket cannot cover is refused and empties it: its body was read
 * and parsed already, so a refused batch costs its sender what it cost the service, and the next request is
 * refused before its body is read.
 */
export interface RateDecision {
  allowed: boolean
  /** Whole tokens left after this request. */
  remaining: number
  /** When the bucket will be full again (ms since the epoch). */
  resetMs: number
  /** When the next token is available, if this request was refused (ms). */
  retryAfterMs: number
  /** The bucket's rate (tokens a second) and size this decision was taken with. */
  rate: number
  burst: number
  /** Whose bucket: the key's, or the whole tenant's (the one that refused, when either did). */
  bucket: 'key' | 'tenant'
}

/** A tenant's own limits where the operator set them (stores/tenants.ts, TenantDirectory), else the defaults. */
export interface TenantLimits {
  limitsOf(tenant: string, defaults: RateLimits): RateLimits
  tenantLimitsOf(tenant: string, defaults: RateLimits): RateLimits
}

export class RateLimiter {
  /** The buckets of the maxKeys keys used last: a forgotten key starts full again. */
  private readonly buckets: LRUCache<string, { tokens: number, atMs: number }>

  /** The default per tenant: all its keys together. */
  readonly tenant: RateLimits

  constructor (readonly rate: number, readonly burst: number, tenant: RateLimits = { rate: rate * 4, burst: burst * 4 }, maxKeys = 100_000) {
    this.buckets = new LRUCache({ max: maxKeys })
    this.tenant = tenant
  }

  /**
   * A caller's request: a token from its tenant's bucket, then from its key's; a refusal by the key gives the
   * tenant's tokens back, so that one key at its limit does not spend its siblings' share.
   */
  takeFor (caller: { actor: string, tenant: string }, nowMs: number, cost: number, limits: TenantLimits): RateDecision {
    const tenantKey = `tenant\u0000${caller.tenant}`
    const tenantLimits = limits.tenantLimitsOf(caller.tenant, this.tenant)
    const ofTenant = this.take(tenantKey, nowMs, cost, tenantLimits, 'tenant')
    if (!ofTenant.allowed) return ofTenant
    const ofKey = this.take(caller.actor, nowMs, cost, limits.limitsOf(caller.tenant, this))
    if (!ofKey.allowed) {
      const b = this.buckets.get(tenantKey)!
      b.tokens = Math.min(tenantLimits.burst, b.tokens + Math.min(cost, tenantLimits.burst))
    }
    return ofKey
  }

  /** `limits`: a tenant's quota instead of the deployment's rate and burst. */
  take (key: string, nowMs: number, cost = 1, limits: RateLimits = this, bucket: RateDecision['bucket'] = 'key'): RateDecision {
    const { rate, burst } = limits
    let b = this.buckets.get(key)
    if (b === undefined) {
      b = { tokens: burst, atMs: nowMs }
      this.buckets.set(key, b)
    }
    b.tokens = Math.min(burst, b.tokens + Math.max(0, nowMs - b.atMs) * rate / 1000)
    b.atMs = nowMs
    const needed = Math.min(cost, burst)
    const allowed = b.tokens >= needed
    if (allowed) b.tokens -= needed
    else if (needed > 1) b.tokens = 0
    const msPerToken = 1000 / rate
    return {
      allowed,
      remaining: Math.floor(b.tokens),
      resetMs: nowMs + Math.ceil((burst - b.tokens) * msPerToken),
      retryAfterMs: allowed ? 0 : Math.ceil((needed - b.tokens) * msPerToken),
      rate,
      burst,
      bucket
    }
  }
}

/** 429 rate_limited for a request `limit` refused, with Retry-After: when the tokens it needs are there. */
export function rateLimitedError (limit: RateDecision, what = 'requests'): ApiError {
  const whose = limit.bucket === 'key' ? 'this API key' : 'this account (all its API keys together)'
  return new ApiError('rate_limited', `Too many ${what} for ${whose}: ${limit.rate}/s sustained, bursts up to ${limit.burst}. Retry after the Retry-After header.`,
    undefined, undefined, Math.max(1, Math.ceil(limit.retryAfterMs / 1000)))
}
