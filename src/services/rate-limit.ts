import { ApiError } from './errors.js'
import { LRUCache } from 'lru-cache'

/**
 * Token bucket per API key: `rate` tokens per second, at most `burst` stored; each request takes one, a batch one
 * per event (`cost`, at most `burst`, so that any batch the bucket can hold can pass). A request of several
 * tokens that the bucket cannot cover is refused and empties it: its body was read and parsed already, so a
 * refused batch costs its sender what it cost the service, and the next request is refused before its body is read.
 */
export interface RateDecision {
  allowed: boolean
  /** Whole tokens left after this request. */
  remaining: number
  /** When the bucket will be full again (ms since the epoch). */
  resetMs: number
  /** When the next token is available, if this request was refused (ms). */
  retryAfterMs: number
}

export class RateLimiter {
  /** The buckets of the maxKeys keys used last: a forgotten key starts full again. */
  private readonly buckets: LRUCache<string, { tokens: number, atMs: number }>

  constructor (readonly rate: number, readonly burst: number, maxKeys = 100_000) {
    this.buckets = new LRUCache({ max: maxKeys })
  }

  take (key: string, nowMs: number, cost = 1): RateDecision {
    let b = this.buckets.get(key)
    if (b === undefined) {
      b = { tokens: this.burst, atMs: nowMs }
      this.buckets.set(key, b)
    }
    b.tokens = Math.min(this.burst, b.tokens + Math.max(0, nowMs - b.atMs) * this.rate / 1000)
    b.atMs = nowMs
    const needed = Math.min(cost, this.burst)
    const allowed = b.tokens >= needed
    if (allowed) b.tokens -= needed
    else if (needed > 1) b.tokens = 0
    const msPerToken = 1000 / this.rate
    return {
      allowed,
      remaining: Math.floor(b.tokens),
      resetMs: nowMs + Math.ceil((this.burst - b.tokens) * msPerToken),
      retryAfterMs: allowed ? 0 : Math.ceil((needed - b.tokens) * msPerToken)
    }
  }
}

/** 429 rate_limited for a request `limit` refused, with Retry-After: when the tokens it needs are there. */
export function rateLimitedError (limiter: RateLimiter, limit: RateDecision, what = 'requests'): ApiError {
  return new ApiError('rate_limited', `Too many ${what} for this API key: ${limiter.rate}/s sustained, bursts up to ${limiter.burst}. Retry after the Retry-After header.`,
    undefined, undefined, Math.max(1, Math.ceil(limit.retryAfterMs / 1000)))
}
