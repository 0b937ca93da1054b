import { describe, expect, it } from 'vitest'
import { MAX_ATTEMPTS } from '../../src/domain/webhooks/backoff.js'
import type { WebhookEndpoint } from '../../src/domain/webhooks/types.js'
import type { Delivery } from '../../src/domain/records/webhook-deliveries.js'
import { afterAttempt, signingSecrets } from './dispatcher.js'

describe('webhook dispatcher', () => {
  it('signs with the previous secrets until their rotation overlap ends', () => {
    const e = { secrets: [{ secret: 'a', created_ms: 0, expires_ms: 1000 }, { secret: 'b', created_ms: 500, expires_ms: null }] } as WebhookEndpoint
    expect(signingSecrets(e, 999)).toEqual(['a', 'b'])
    expect(signingSecrets(e, 1000)).toEqual(['b'])
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
