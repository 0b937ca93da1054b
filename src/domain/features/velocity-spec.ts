import type { ScoreRequest } from '../decision/types.js'
import ipaddr from 'ipaddr.js'
import { emailDomain } from './identity.js'

/**
 * What velocity can be asked for: aggregates over event-time windows per dimension.
 * Dimensions: user, device, ip, email, card (custom.card_fingerprint), `user_event` (the user's events of the
 * request's kind: its payments for a payment, its logins for a login) and `custom.<key>` for any custom key.
 * Windows: 1m..1h at minute resolution, 2h..24h at hour resolution, 7d, 10d, 14d and 30d at day resolution (UTC
 * calendar days: the current day and the 6, 9, 13 or 29 before it).
 */
export const WINDOWS = {
  '1m': { res: 'm', units: 1 },
  '5m': { res: 'm', units: 5 },
  '10m': { res: 'm', units: 10 },
  '15m': { res: 'm', units: 15 },
  '30m': { res: 'm', units: 30 },
  '1h': { res: 'm', units: 60 },
  '2h': { res: 'h', units: 2 },
  '6h': { res: 'h', units: 6 },
  '12h': { res: 'h', units: 12 },
  '24h': { res: 'h', units: 24 },
  '7d': { res: 'd', units: 7 },
  '10d': { res: 'd', units: 10 },
  '14d': { res: 'd', units: 14 },
  '30d': { res: 'd', units: 30 }
} as const satisfies Record<string, { res: 'm' | 'h' | 'd', units: number }>
export type Window = keyof typeof WINDOWS

/** Counted for every request that names them. */
export const BUILT_IN_DIMENSIONS = ['user', 'device', 'ip', 'email', 'card'] as const
/**
 * Counted when a rule or the model reads them: merchant = custom.merchant_id or custom.terminal_id (a payout's
 * beneficiary); country = geo.country; user_event = the user and the event kind together, so that a payment's
 * amount is compared with the user's payments, not with its logins (which carry no amount); ip24 and ip16 = the
 * IP's network (an IPv4 /24 or /16; an IPv6 /48 or /32), where a botnet's or a data centre's neighbours meet;
 * email_domain = the email's domain.
 */
const DERIVED_DIMENSIONS = ['merchant', 'country', 'user_event', 'ip24', 'ip16', 'email_domain'] as const
/**
 * Read, never counted by the request itself: `inflow` is the request's user as a payee, the `merchant` record
 * of its user_id (what other users paid it: a mule's inflow seen at its own payout).
 */
const ALIASES: Readonly<Record<string, string>> = { inflow: 'merchant' }
const CUSTOM_DIMENSION = /^custom\.[A-Za-z0-9_]{1,64}$/
/**
 * `label.<dimension>`: the dimension's transactions later labelled fraud or chargeback, counted at the
 * transaction's event time when the label arrives (never by the request itself).
 */
export const LABEL_PREFIX = 'label.'
/**
 * Filtered counts, read by every request, counted only by some: `failed.<dimension>` by the events whose
 * `metadata.outcome` is a failure (FAILED_OUTCOMES: a failed login, a declined payment); `update.<dimension>` by
 * `account_update` events (an email, phone or password change).
 */
const FAILED_PREFIX = 'failed.'
const UPDATE_PREFIX = 'update.'
const FAILED_OUTCOMES: ReadonlySet<string> = new Set(['failed', 'declined', 'failure', 'denied'])
const FILTERS = [LABEL_PREFIX, FAILED_PREFIX, UPDATE_PREFIX] as const

/** A dimension without its filter prefix (label., failed., update.). */
function unfiltered (d: string): string {
  for (const prefix of FILTERS) if (d.startsWith(prefix)) return d.slice(prefix.length)
  return d
}

/** Whether a request's `metadata.outcome` says the attempt failed. */
export function failedOutcome (request: ScoreRequest): boolean {
  const outcome = request.metadata?.outcome
  return typeof outcome === 'string' && FAILED_OUTCOMES.has(outcome.toLowerCase())
}

/** count, sum of amounts, and sum of squared amounts (for the amount's standard deviation). */
export type Aggregate = 'count' | 'sum' | 'sumsq'

export type VelocityNeed =
  | { dimension: string, aggregate: Aggregate, window: Window }
  | { dimension: string, aggregate: 'distinct', of: string, window: Window }

function isCountedDimension (d: string): boolean {
  return (BUILT_IN_DIMENSIONS as readonly string[]).includes(d) || (DERIVED_DIMENSIONS as readonly string[]).includes(d) || Object.hasOwn(ALIASES, d) || CUSTOM_DIMENSION.test(d)
}

export function isDimension (d: string): boolean {
  return isCountedDimension(unfiltered(d))
}

/** Whether a request adds itself to a dimension's counts (labels and aliases never; filtered ones when they match). */
export function countedBy (request: ScoreRequest, d: string): boolean {
  if (d.startsWith(LABEL_PREFIX) || Object.hasOwn(ALIASES, d)) return false
  if (d.startsWith(FAILED_PREFIX)) return failedOutcome(request)
  if (d.startsWith(UPDATE_PREFIX)) return request.event === 'account_update'
  return true
}

/** The dimension whose records a dimension reads: an alias's (inflow: merchant, label.inflow: label.merchant), else its own. */
export function recordDimension (d: string): string {
  const base = unfiltered(d)
  return Object.hasOwn(ALIASES, base) ? d.slice(0, d.length - base.length) + ALIASES[base] : d
}

export const isWindow = (w: string): w is Window => Object.hasOwn(WINDOWS, w)

/**
 * An IP's network: the first 3 (or 2) octets of an IPv4 address (an IPv4-mapped IPv6 one included), or the first
 * 3 (or 2) groups of an IPv6 one, a /48 (or /32). Undefined for what is not an address.
 */
function network (ip: string | undefined, octets: 2 | 3): string | undefined {
  if (ip === undefined) return undefined
  if (!ip.includes(':')) {
    const parts = ip.split('.')
    return parts.length === 4 ? `${parts.slice(0, octets).join('.')}/${octets * 8}` : undefined
  }
  if (!ipaddr.IPv6.isValid(ip)) return undefined
  const v6 = ipaddr.IPv6.parse(ip)
  if (v6.isIPv4MappedAddress()) return network(v6.toIPv4Address().toString(), octets)
  return `${v6.parts.slice(0, octets).map(p => p.toString(16)).join(':')}::/${octets * 16}`
}

/** The value a request has for a dimension, if any (numbers in custom keys count as their decimal text). */
export function dimensionValue (request: ScoreRequest, dimension: string): string | undefined {
  switch (dimension) {
    case 'user': return request.user_id
    case 'device': return request.device_id
    case 'ip': return request.ip
    case 'email': return request.email?.toLowerCase()
    case 'card': return customValue(request, 'card_fingerprint')
    case 'merchant': return customValue(request, 'merchant_id') ?? customValue(request, 'terminal_id')
    case 'country': { const c = request.geo?.country; return typeof c === 'string' && c !== '' ? c.toUpperCase() : undefined }
    // an event kind has no '/' (score-schema.ts): `<event>/<user>` names one pair only
    case 'user_event': return request.user_id === undefined ? undefined : `${request.event}/${request.user_id}`
    case 'ip24': return network(request.ip, 3)
    case 'ip16': return network(request.ip, 2)
    case 'email_domain': return emailDomain(request.email)
    case 'inflow': return request.user_id
    default: {
      const base = unfiltered(dimension)
      if (base !== dimension) return dimensionValue(request, base)
      return dimension.startsWith('custom.') ? customValue(request, dimension.slice(7)) : undefined
    }
  }
}

/** A custom key's value as text (a number as its decimal text), if it has one. */
export function customValue (request: ScoreRequest, key: string): string | undefined {
  const v = request.custom?.[key]
  return typeof v === 'string' && v !== '' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined
}

const names = new WeakMap<VelocityNeed, string>()

/** Name of the feature holding a need's value: user_count_1h, user_sum_24h, user_distinct_device_24h (made once per need). */
export function featureName (need: VelocityNeed): string {
  let name = names.get(need)
  if (name === undefined) {
    name = need.aggregate === 'distinct'
      ? `${need.dimension}_distinct_${need.of}_${need.window}`
      : `${need.dimension}_${need.aggregate}_${need.window}`
    names.set(need, name)
  }
  return name
}
