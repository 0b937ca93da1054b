import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { LIMITS } from '../../src/services/input-limits.js'
import { auth, LIVE_KEY, startTestApp } from '../support/app.js'

/**
 * Batch amplification: a batch used to cost one rate-limit token whatever it held, and 8 MiB of keys held the
 * event loop for seconds. Bounds of the API layer, the same on both transports: run on the embedded log.
 */
let app: App
let nowMs = Date.parse('2026-11-01T00:00:00Z')
const post = (url: string, payload: string, key?: string) =>
  app.server.inject({ method: 'POST', url, headers: { ...auth(key), 'content-type': 'application/json' }, payload })
const events = (n: number, extra: (i: number) => Record<string, unknown> = () => ({})) =>
  JSON.stringify({ events: Array.from({ length: n }, (_, i) => ({ event: 'login', user_id: `fair-${i}`, ...extra(i) })) })

beforeAll(async () => { app = await startTestApp({ RATE_LIMIT_PER_SECOND: '100', RATE_LIMIT_BURST: '700' }, { clock: () => nowMs }) })
afterAll(async () => { await app.close() })

describe('batch fairness', () => {
  it('spends a token per event: a full bucket holds one batch of 500, not two; a refused batch empties the bucket', async () => {
    const first = await post('/v1/score/batch', events(500))
    expect(first.statusCode).toBe(200)
    expect(Number(first.headers['x-ratelimit-remaining'])).toBe(200)
    const second = await post('/v1/score/batch', events(500))
    expect(second.statusCode).toBe(429)
    expect(second.json().error.code).toBe('rate_limited')
    // 499 tokens more at 100/s, from an empty bucket: 5 s.
    expect(Number(second.headers['retry-after'])).toBe(5)
    // The refused batch spent the 199 tokens left: the next request is refused before its body is read.
    const single = await post('/v1/score', JSON.stringify({ event: 'login', user_id: 'after' }))
    expect(single.statusCode).toBe(429)
    // Another key's bucket is its own.
    expect((await post('/v1/score', JSON.stringify({ event: 'login', user_id: 'other-key' }), LIVE_KEY)).statusCode).toBe(200)
    nowMs += 5_000
    expect((await post('/v1/score/batch', events(500))).statusCode).toBe(200)
  })

  it(`refuses a body over ${LIMITS.batchBytes} bytes with 413 before deciding anything`, async () => {
    nowMs += 60_000
    const big = events(500, () => ({ blob: 'x'.repeat(2100) }))
    expect(big.length).toBeGreaterThan(LIMITS.batchBytes)
    const res = await post('/v1/score/batch', big)
    expect(res.statusCode).toBe(413)
    expect(res.json().error.code).toBe('body_too_large')
  })

  it(`refuses more than ${LIMITS.batchKeys} keys in all the events with 400 batch_too_large, spending no event tokens`, async () => {
    nowMs += 60_000
    const keys = (i: number) => Object.fromEntries(Array.from({ length: 110 }, (_, k) => [`k${k}`, i]))
    const res = await post('/v1/score/batch', events(500, i => ({ metadata: { a: 1 }, ...keys(i) })))
    expect(res.statusCode).toBe(400)
    expect(res.json().error).toMatchObject({ code: 'batch_too_large', param: 'events' })
    expect(Number(res.headers['x-ratelimit-remaining'])).toBe(699)
  })
})
