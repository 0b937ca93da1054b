import https from 'node:https'
import { rootCertificates } from 'node:tls'

export interface SendResult { status_code: number | null, error: string | null, duration_ms: number }
export type WebhookSender = (url: string, body: string, headers: Record<string, string>) => Promise<SendResult>

export interface SenderOptions {
  /** The whole exchange (connect, send, response headers) must finish within this (5 s). */
  timeoutMs: number
  /** Extra trusted CA certificates (PEM) besides the public roots, e.g. a private CA of the receivers. */
  extraCa?: string
}

/** The one adapter for outgoing webhooks (HTTPS only): POSTs the body and reports the status or the error, never throws. */
export function httpSender (options: SenderOptions): WebhookSender {
  const ca = options.extraCa === undefined ? undefined : [...rootCertificates, options.extraCa]
  const agent = new https.Agent({ keepAlive: true, maxSockets: 50, ca })
  return (url, body, headers) => new Promise<SendResult>(resolve => {
    const started = performance.now()
    const target = new URL(url)
    let settled = false
    const done = (status: number | null, error: string | null) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve({ status_code: status, error, duration_ms: Math.round(performance.now() - started) })
    }
    const request = https.request(target, {
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'fraud-decision-webhooks/1', ...headers }
    }, response => {
      response.resume()
      response.on('end', () => done(response.statusCode ?? null, null))
      response.on('error', err => done(response.statusCode ?? null, err.message))
    })
    const timer = setTimeout(() => { request.destroy(); done(null, `timeout after ${options.timeoutMs} ms`) }, options.timeoutMs)
    request.on('error', err => done(null, err.message))
    request.end(body)
  })
}
