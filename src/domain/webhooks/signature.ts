import { createHmac, randomBytes } from 'node:crypto'
import { sameBytes } from '../same-bytes.js'

export const SIGNATURE_HEADER = 'X-Service-Signature'

export function newWebhookSecret (): string {
  return 'whsec_' + randomBytes(24).toString('base64url')
}

const hmac = (secret: string, timestamp: number, rawBody: string | Buffer) =>
  createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex')

/** `t=<unix s>,v1=<hex>[,v1=<hex>...]`: one v1 per secret still signing (two during a rotation). */
export function signatureHeader (rawBody: string | Buffer, secrets: readonly string[], timestamp: number): string {
  return [`t=${timestamp}`, ...secrets.map(s => `v1=${hmac(s, timestamp, rawBody)}`)].join(',')
}

/**
 * For receivers: true when `header` carries a v1 signature of `rawBody` made with `secret` at a timestamp
 * within `toleranceSeconds` of now. Recomputes HMAC-SHA256 over "<t>.<raw body>" and compares in constant time.
 */
export function verifyWebhookSignature (rawBody: string | Buffer, header: string, secret: string, toleranceSeconds = 300, nowSeconds = Math.floor(Date.now() / 1000)): boolean {
  let timestamp: number | undefined
  const candidates: string[] = []
  for (const part of header.split(',')) {
    const [k, v] = part.split('=', 2)
    if (k === 't' && v !== undefined && /^\d+$/.test(v)) timestamp = Number(v)
    else if (k === 'v1' && v !== undefined) candidates.push(v)
  }
  if (timestamp === undefined || Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false
  const expected = Buffer.from(hmac(secret, timestamp, rawBody), 'hex')
  return candidates.some(c => sameBytes(Buffer.from(c, 'hex'), expected))
}
