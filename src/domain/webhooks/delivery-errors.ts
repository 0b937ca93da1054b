/**
 * What a failed delivery attempt records and shows (GET /v1/webhooks/{id}/deliveries, the dashboard): one of a
 * few neutral categories, never the socket's own words. "connect ECONNREFUSED 10.0.0.5:22" or "EPROTO wrong
 * version number" would tell a tenant which internal ports are open; the detail goes to the service's log only.
 * A name that does not resolve and a destination the egress policy refuses read the same, so the answer does
 * not tell whether an internal name exists.
 */
export const DELIVERY_ERRORS = {
  refused: 'destination unresolvable or not allowed by the egress policy',
  tls: 'TLS handshake failed',
  timeout: 'timed out',
  connection: 'connection failed'
} as const

const NEUTRAL = new Set<string>(Object.values(DELIVERY_ERRORS))

/** Error codes of a name that did not resolve (getaddrinfo, c-ares) and of a destination the policy refused. */
const UNRESOLVED = /^(?:EGRESS_REFUSED|ENOTFOUND|EAI_AGAIN|EAI_FAIL|EAI_NODATA|EAI_NONAME|ENODATA|ESERVFAIL|ENONAME)$/
const TLS = /^(?:EPROTO|ERR_SSL_|ERR_TLS_|ERR_OSSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/

/** The category of a failed attempt's error (`code` as Node gives it, or found in `message`). */
export function deliveryErrorCategory (code: string | undefined, message: string): string {
  const c = code ?? /\b(EGRESS_REFUSED|ENOTFOUND|EAI_[A-Z]+|EPROTO|ETIMEDOUT|ERR_[A-Z0-9_]+)\b/.exec(message)?.[1]
  if (c !== undefined && UNRESOLVED.test(c)) return DELIVERY_ERRORS.refused
  if ((c !== undefined && TLS.test(c)) || /certificate|altnames|\bSSL\b|\bTLS\b|handshake/i.test(message)) return DELIVERY_ERRORS.tls
  if (c === 'ETIMEDOUT' || /time(?:d)? ?out/i.test(message)) return DELIVERY_ERRORS.timeout
  return DELIVERY_ERRORS.connection
}

/**
 * A stored attempt's error as the API shows it: the neutral categories, "HTTP <status>" and the service's own
 * reasons (endpoint deleted or disabled) as they are; anything else (recorded before errors were neutral) mapped.
 */
export function shownDeliveryError (stored: string | null): string | null {
  if (stored === null || NEUTRAL.has(stored) || /^HTTP \d{3}$/.test(stored) || /^endpoint (?:deleted$|disabled)/.test(stored)) return stored
  return deliveryErrorCategory(undefined, stored)
}
