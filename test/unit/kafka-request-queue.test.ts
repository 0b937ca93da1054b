import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'

// kafkajs 2.2.4's request queue re-armed a 1 ms timer for ever once a request was answered, on every broker
// connection, with nothing waiting (upstream issues #1556, #1704): patches/kafkajs+2.2.4.patch, applied by
// `npm install` (postinstall: patch-package). These read the installed library, so a copy without it fails.
const require = createRequire(import.meta.url)
const RequestQueue = require('kafkajs/src/network/requestQueue') as new (options: object) => {
  checkPendingRequests(): void
  maybeThrottle(ms: number): void
  throttleCheckTimeoutId: NodeJS.Timeout | null
}
const logger = { debug () {}, info () {}, warn () {}, error () {} }
const queue = () => new RequestQueue({ maxInFlightRequests: 1, requestTimeout: 1000, enforceRequestTimeout: false, clientId: 'test', broker: 'b:9092', logger })

describe('the Kafka client on this install (patches/)', () => {
  it('arms no timer after an answer when no request waits and none is throttled', () => {
    const q = queue()
    q.checkPendingRequests() // what every answered request runs
    expect(q.throttleCheckTimeoutId).toBeNull()
  })

  it('still checks again when the broker throttles', () => {
    const q = queue()
    q.maybeThrottle(60_000)
    q.checkPendingRequests()
    expect(q.throttleCheckTimeoutId).not.toBeNull()
    clearTimeout(q.throttleCheckTimeoutId!)
  })
})
