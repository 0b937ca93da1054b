import type { ScoreRequest } from '../decision/types.js'

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
 * Counted when a rule or the model reads them: merchant = custom.merchant_id or custom.terminal_id; country =
 * geo.country; user_event = the user and the event kind together, so that a payment's amount is compared with the
 * user's payments, not with its logins (which carry no amount).
 */
const DERIVED_DIMENSIONS = ['merchant', 'country', 'user_event'] as const
const CUSTOM_DIMENSION = /^custom\.[A-Za-z0-9_]{1,64}$/
/**
 * `label.<dimension>`: the dimension's transactions later labelled fraud or chargeback, counted at the
 * transaction's event time when the label arrives (never by the request itself).
 */
export const LABEL_PREFIX = 'label.'

/** count, sum of amounts, and sum of squared amounts (for the amount's standard deviation). */
export type Aggregate = 'count' | 'sum' | 'sumsq'

export type VelocityNeed =
  | { dimension: string, aggregate: Aggregate, window: Window }
  | { dimension: string, aggregate: 'distinct', of: string, window: Window }

function isCountedDimension (d: string): boolean {
  return (BUILT_IN_DIMENSIONS as readonly string[]).includes(d) || (DERIVED_DIMENSIONS as readonly string[]).includes(d) || CUSTOM_DIMENSION.test(d)
}

export function isDimension (d: string): boolean {
  return isCountedDimension(d.startsWith(LABEL_PREFIX) ? d.slice(LABEL_PREFIX.length) : d)
}

export const isLabelDimension = (d: string) => d.startsWith(LABEL_PREFIX)

export const isWindow = (w: string): w is Window => Object.hasOwn(WINDOWS, w)

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
    default:
      if (dimension.startsWith(LABEL_PREFIX)) return dimensionValue(request, dimension.slice(LABEL_PREFIX.length))
      return dimension.startsWith('custom.') ? customValue(request, dimension.slice(7)) : undefined
  }
}

function customValue (request: ScoreRequest, key: string): string | undefined {
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
