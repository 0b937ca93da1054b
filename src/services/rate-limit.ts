import { LRUCache } from 'lru-cache'

/** Token bucket per API key: `rate` tokens per second, at most `burst` stored; each request takes one. */
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

  take (key: string, nowMs: number): RateDecision {
    let b = this.buckets.get(key)
    if (b === undefined) {
      b = { tokens: this.burst, atMs: nowMs }
      this.buckets.set(key, b)
    }
    b.tokens = Math.min(this.burst, b.tokens + Math.max(0, nowMs - b.atMs) * this.rate / 1000)
    b.atMs = nowMs
    const allowed = b.tokens >= 1
    if (allowed) b.tokens -= 1
    const msPerToken = 1000 / this.rate
    return {
      allowed,
      remaining: Math.floor(b.tokens),
      resetMs: nowMs + Math.ceil((this.burst - b.tokens) * msPerToken),
      retryAfterMs: allowed ? 0 : Math.ceil((1 - b.tokens) * msPerToken)
    }
  }
}
