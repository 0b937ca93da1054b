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
  private readonly buckets = new Map<string, { tokens: number, atMs: number }>()

  constructor (readonly rate: number, readonly burst: number, private readonly maxKeys = 100_000) {}

  take (key: string, nowMs: number): RateDecision {
    let b = this.buckets.get(key)
    if (b === undefined) {
      if (this.buckets.size >= this.maxKeys) this.buckets.delete(this.buckets.keys().next().value!)
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
