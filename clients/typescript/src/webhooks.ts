import { createHmac, timingSafeEqual } from 'node:crypto'
import type { components } from './schema.js'

/** The header every delivery is signed in: `t=<unix s>,v1=<hex>[,v1=<hex>]` (two v1 during a secret rotation). */
export const SIGNATURE_HEADER = 'X-Service-Signature'

export class WebhookSignatureError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'WebhookSignatureError'
  }
}

/** Any event a webhook endpoint receives (the document's `webhooks`); narrow it by `type`. */
export type WebhookEvent = components['schemas']['WebhookEvent']

/**
 * The event of a delivery whose signature is good: HMAC-SHA256 of "<t>.<raw body>" with `secret` (or one of
 * `secret`s, while a rotation overlaps) equals one v1 of the header, compared in constant time, and t is within
 * `toleranceSeconds` of now (replays of old deliveries are refused). Throws WebhookSignatureError otherwise.
 * Pass the body exactly as received (bytes or text), before any JSON parsing.
 */
export function verifyWebhook (rawBody: string | Uint8Array, header: string | null | undefined, secret: string | readonly string[], toleranceSeconds = 300, nowSeconds = Math.floor(Date.now() / 1000)): WebhookEvent {
  if (header == null || header === '') throw new WebhookSignatureError(`no ${SIGNATURE_HEADER} header`)
  let timestamp: number | undefined
  const signatures: Buffer[] = []
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2)
    if (key === 't' && value !== undefined && /^\d+$/.test(value)) timestamp = Number(value)
    else if (key === 'v1' && value !== undefined && /^[0-9a-f]{64}$/.test(value)) signatures.push(Buffer.from(value, 'hex'))
  }
  if (timestamp === undefined) throw new WebhookSignatureError('the signature has no timestamp')
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) throw new WebhookSignatureError(`the signature is ${Math.abs(nowSeconds - timestamp)} s old, over the tolerance of ${toleranceSeconds} s`)
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody) : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength)
  for (const s of typeof secret === 'string' ? [secret] : secret) {
    const expected = createHmac('sha256', s).update(`${timestamp}.`).update(body).digest()
    if (signatures.some(candidate => timingSafeEqual(candidate, expected))) return JSON.parse(body.toString('utf8')) as WebhookEvent
  }
  throw new WebhookSignatureError('no signature matches the secret')
}
