import type { ScoreRequest } from '../decision/types.js'

/**
 * What velocity can be asked for: aggregates over event-time windows per dimension.
 * Dimensions: user, device, ip, email, card (custom.card_fingerprint) and `custom.<key>` for any custom key.
 * Windows: 1m..1h at minute resolution, 2h..30d at hour resolution.
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
  '7d': { res: 'h', units: 168 },
  '30d': { res: 'h', units: 720 }
} as const satisfies Record<string, { res: 'm' | 'h', units: number }>
export type Window = keyof typeof WINDOWS

export const BUILT_IN_DIMENSIONS = ['user', 'device', 'ip', 'email', 'card'] as const
const CUSTOM_DIMENSION = /^custom\.[A-Za-z0-9_]{1,64}$/

export type VelocityNeed =
  | { dimension: string, aggregate: 'count' | 'sum', window: Window }
  | { dimension: string, aggregate: 'distinct', of: string, window: Window }

export function isDimension (d: string): boolean {
  return (BUILT_IN_DIMENSIONS as readonly string[]).includes(d) || CUSTOM_DIMENSION.test(d)
}

export const isWindow = (w: string): w is Window => Object.hasOwn(WINDOWS, w)

/** The value a request has for a dimension, if any (numbers in custom keys count as their decimal text). */
export function dimensionValue (request: ScoreRequest, dimension: string): string | undefined {
  switch (dimension) {
    case 'user': return request.user_id
    case 'device': return request.device_id
    case 'ip': return request.ip
    case 'email': return request.email?.toLowerCase()
    case 'card': return customValue(request, 'card_fingerprint')
    default: return dimension.startsWith('custom.') ? customValue(request, dimension.slice(7)) : undefined
  }
}

function customValue (request: ScoreRequest, key: string): string | undefined {
  const v = request.custom?.[key]
  return typeof v === 'string' && v !== '' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined
}

/** Name of the feature holding a need's value: user_count_1h, user_sum_24h, user_distinct_device_24h. */
export function featureName (need: VelocityNeed): string {
  return need.aggregate === 'distinct'
    ? `${need.dimension}_distinct_${need.of}_${need.window}`
    : `${need.dimension}_${need.aggregate}_${need.window}`
}

/** Read for every request: what the Stage 2 model uses. */
export const MODEL_NEEDS: readonly VelocityNeed[] = [
  { dimension: 'user', aggregate: 'count', window: '1h' },
  { dimension: 'device', aggregate: 'count', window: '1h' },
  { dimension: 'ip', aggregate: 'count', window: '1h' },
  { dimension: 'email', aggregate: 'count', window: '1h' },
  { dimension: 'user', aggregate: 'count', window: '24h' },
  { dimension: 'user', aggregate: 'sum', window: '24h' },
  { dimension: 'user', aggregate: 'distinct', of: 'device', window: '24h' },
  { dimension: 'ip', aggregate: 'distinct', of: 'user', window: '24h' }
]
