import { describe, expect, it } from 'vitest'
import { MAX_ATTEMPTS, nextAttemptAt, RETRY_DELAYS_MS } from '../../src/domain/webhooks/backoff.js'
import { signatureHeader, verifyWebhookSignature } from '../../src/domain/webhooks/signature.js'

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
})
