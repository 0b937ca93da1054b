import { describe, expect, it } from 'vitest'
import { MAX_ATTEMPTS, nextAttemptAt, RETRY_DELAYS_MS } from '../../src/domain/webhooks/backoff.js'
import { afterAttempt, signingSecrets } from '../../src/topologies/webhooks/dispatcher.js'
import { signatureHeader, verifyWebhookSignature } from '../../src/domain/webhooks/signature.js'
import type { WebhookEndpoint } from '../../src/domain/webhooks/types.js'
import type { Delivery } from '../../src/domain/records/webhook-deliveries.js'

describe('webhook signatures', () => {
  const body = '{"id":"evt_1","type":"case.created"}'
  it('signs "t.raw_body" with HMAC-SHA256, one v1 per secret, verified within 5 minutes only', () => {
    const header = signatureHeader(body, ['whsec_old', 'whsec_new'], 1_800_000_000)
    expect(header).toMatch(/^t=1800000000,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/)
    expect(verifyWebhookSignature(body, header, 'whsec_old', 300, 1_800_000_000)).toBe(true)
    expect(verifyWebhookSignature(body, header, 'whsec_new', 300, 1_800_000_300)).toBe(true)
    expect(verifyWebhookSignature(body, header, 'whsec_new', 300, 1_800_000_301)).toBe(false)
    expect(verifyWebhookSignature(body, header, 'whsec_other', 300, 1_800_000_000)).toBe(false)
    expect(verifyWebhookSignature(body, 'v1=abc', 'whsec_new')).toBe(false)
  })

  it('signs with the previous secrets until their rotation overlap ends', () => {
    const e = { secrets: [{ secret: 'a', created_ms: 0, expires_ms: 1000 }, { secret: 'b', created_ms: 500, expires_ms: null }] } as WebhookEndpoint
    expect(signingSecrets(e, 999)).toEqual(['a', 'b'])
    expect(signingSecrets(e, 1000)).toEqual(['b'])
  })
})

describe('retry schedule', () => {
  it('makes at most 12 attempts, the last within 24 h of the first even with the largest jitter', () => {
    let at = 0
    let attempts = 1
    for (;;) {
      const next = nextAttemptAt(attempts, at, 0.9999)
      if (next === null) break
      expect(next - at).toBeGreaterThan(RETRY_DELAYS_MS[attempts - 1]! * 0.8)
      at = next
      attempts++
    }
    expect(attempts).toBe(MAX_ATTEMPTS)
    expect(at).toBeLessThan(24 * 3_600_000)
    expect(nextAttemptAt(1, 0, 0)).toBe(24_000)
    expect(nextAttemptAt(1, 0, 0.5, 0.001)).toBe(30)
  })

  it('succeeds on 2xx, retries other answers and errors, dead-letters after the 12th attempt or a 410', () => {
    const d = { status: 'pending', attempts: [], next_attempt_ms: 0, version: 1 } as unknown as Delivery
    const fail = (n: number) => ({ at_ms: n, status_code: 503, error: 'HTTP 503', duration_ms: 1 })
    expect(afterAttempt(d, { at_ms: 5, status_code: 204, error: null, duration_ms: 1 }, 0.5, 1)).toMatchObject({ status: 'succeeded', next_attempt_ms: null, version: 2 })
    expect(afterAttempt(d, fail(5), 0.5, 1)).toMatchObject({ status: 'pending', next_attempt_ms: 30_005 })
    expect(afterAttempt(d, { at_ms: 5, status_code: 410, error: 'HTTP 410', duration_ms: 1 }, 0.5, 1)).toMatchObject({ status: 'failed', next_attempt_ms: null })
    let state = d
    for (let i = 0; i < MAX_ATTEMPTS; i++) state = afterAttempt(state, fail(i), 0.5, 1)
    expect(state).toMatchObject({ status: 'failed', next_attempt_ms: null })
    expect(state.attempts).toHaveLength(12)
  })
})
