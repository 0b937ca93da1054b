import https from 'node:https'
import { isIP } from 'node:net'
import { rootCertificates } from 'node:tls'
import type { EgressPolicy } from '../../src/domain/webhooks/egress-policy.js'
import { deliveryErrorCategory } from '../../src/domain/webhooks/delivery-errors.js'
import { egressLookup, EgressRefusedError, type Resolve } from './egress-lookup.js'

/** `error`: a neutral category (src/domain/webhooks/delivery-errors.ts); `detail`: what failed, for the log only. */
export interface SendResult { status_code: number | null, error: string | null, detail?: string, duration_ms: number }
export type WebhookSender = (url: string, body: string, headers: Record<string, string>) => Promise<SendResult>

export interface SenderOptions {
  /** The whole exchange (connect, send, response headers) must finish within this (5 s). */
  timeoutMs: number
  /** Extra trusted CA certificates (PEM) besides the public roots, e.g. a private CA of the receivers. */
  extraCa?: string
  /** Where deliveries may connect to (WEBHOOK_EGRESS_ALLOW). */
  policy: EgressPolicy
  /** Name resolution (tests give their own, e.g. a name that rebinds to loopback); dns.lookup by default. */
  resolve?: Resolve
}

/**
 * The one adapter for outgoing webhooks (HTTPS only): POSTs the body and reports the status or the error, never
 * throws. Every connection goes only to an address the egress policy allows (an address literal is checked
 * here, a name by the socket's lookup); redirects are not followed (a 3xx is a failed attempt).
 */
export function httpSender (options: SenderOptions): WebhookSender {
  const ca = options.extraCa === undefined ? undefined : [...rootCertificates, options.extraCa]
  const lookup = egressLookup(options.policy, options.resolve)
  const agent = new https.Agent({ keepAlive: true, maxSockets: 50, ca, lookup })
  return (url, body, headers) => new Promise<SendResult>(resolve => {
    const started = performance.now()
    let settled = false
    let timer: NodeJS.Timeout | undefined
    const done = (status: number | null, err?: NodeJS.ErrnoException) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      const error = err === undefined ? null : deliveryErrorCategory(err.code, err.message)
      resolve({ status_code: status, error, ...(err === undefined ? {} : { detail: `${err.code ?? err.name}: ${err.message}` }), duration_ms: Math.round(performance.now() - started) })
    }
    const target = new URL(url)
    // A socket given an address literal connects without a lookup: the policy is applied here instead.
    const bare = target.hostname.replace(/^\[(.*)\]$/, '$1')
    const refusal = isIP(bare) === 0 ? null : options.policy.addressRefusal(bare, bare)
    if (refusal !== null) {
      done(null, new EgressRefusedError(`${bare} is ${refusal}`))
      return
    }
    const request = https.request(target, {
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'fraud-decision-webhooks/1', ...headers }
    }, response => {
      response.resume()
      response.on('end', () => done(response.statusCode ?? null))
      response.on('error', err => done(response.statusCode ?? null, err))
    })
    timer = setTimeout(() => {
      request.destroy()
      done(null, Object.assign(new Error(`no answer within ${options.timeoutMs} ms`), { code: 'ETIMEDOUT' }))
    }, options.timeoutMs)
    request.on('error', err => done(null, err))
    request.end(body)
  })
}
