import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { RateLimiter } from '../../src/services/rate-limit.js'
import { auth, LIVE_KEY, startTestApp } from '../support/app.js'

let app: App
let now = Date.parse('2026-11-22T12:00:00Z')
const score = (key?: string) => app.server.inject({ method: 'POST', url: '/v1/score', headers: auth(key), payload: { event: 'login' } })

beforeAll(async () => { app = await startTestApp({ RATE_LIMIT_PER_SECOND: '5', RATE_LIMIT_BURST: '10' }, { clock: () => now }) })
afterAll(async () => { await app.close() })

describe('rate limits per key', () => {
  it('allows the burst, then 429 with Retry-After and the envelope; refills at the sustained rate; per key', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await score()
      expect(res.statusCode).toBe(200)
      expect(res.headers['x-ratelimit-remaining']).toBe(String(9 - i))
      expect(res.headers['x-ratelimit-limit']).toBe('5')
    }
    const refused = await score()
    expect(refused.statusCode).toBe(429)
    expect(refused.json().error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' })
    expect(refused.headers['retry-after']).toBe('1')
    expect(refused.headers['x-ratelimit-remaining']).toBe('0')
    expect(Number(refused.headers['x-ratelimit-reset'])).toBe(Math.ceil((now + 2000) / 1000))
    expect((await score(LIVE_KEY)).statusCode).toBe(200)
    now += 200
    expect((await score()).statusCode).toBe(200)
    expect((await score()).statusCode).toBe(429)
    now += 2000
    expect((await score()).headers['x-ratelimit-remaining']).toBe('9')
  })

  it('sustains 500/s with bursts of 1,000 by default', () => {
    const limiter = new RateLimiter(500, 1000)
    let allowed = 0
    for (let i = 0; i < 1500; i++) if (limiter.take('k', 0).allowed) allowed++
    expect(allowed).toBe(1000)
    for (let ms = 1; ms <= 1000; ms++) for (let i = 0; i < 3; i++) if (limiter.take('k', ms).allowed) allowed++
    expect(allowed).toBe(1500)
  })
  it('forgets the bucket of the key used longest ago, not of a key in use, when it holds too many', () => {
    const limiter = new RateLimiter(1, 2, { rate: 4, burst: 8 }, 2)
    limiter.take('busy', 0)
    limiter.take('busy', 0)
    limiter.take('other', 0)
    limiter.take('busy', 0) // refused, and used last
    limiter.take('third', 0) // one key too many: 'other' goes
    expect(limiter.take('busy', 0).allowed).toBe(false)
    expect(limiter.take('other', 0).remaining).toBe(1)
  })
})
