import type { Features } from './types.js'

/**
 * Stage 2 in its first form: a logistic model over velocity and device history with a fixed global prior.
 * Contributions above SIGNAL_MIN (in absolute log-odds) are reported as signals, strongest first.
 */
export const MODEL_VERSION = 'prior-2026-11-22'

interface Term { signal: string, weight: number, value(f: Features): number }

const BIAS = -3.2
const TERMS: readonly Term[] = [
  { signal: 'velocity', weight: 0.9, value: f => Math.log1p(f.user_count_1h ?? 0) + 0.5 * Math.log1p(f.ip_count_1h ?? 0) + 0.5 * Math.log1p(f.device_count_1h ?? 0) },
  { signal: 'new_device', weight: 1.1, value: f => (f.device_present ?? 0) * (1 - (f.device_known ?? 0)) * (f.user_present ?? 0) },
  { signal: 'known_device', weight: -0.9, value: f => f.device_known ?? 0 },
  { signal: 'high_amount', weight: 0.35, value: f => Math.max(0, Math.log10(1 + (f.amount ?? 0)) - 2) },
  { signal: 'amount_spike', weight: 0.4, value: f => Math.log1p(f.user_sum_24h ?? 0) > 0 ? Math.max(0, Math.log1p(f.amount ?? 0) - Math.log1p((f.user_sum_24h ?? 0) / Math.max(1, f.user_count_24h ?? 1))) : 0 }
]
const SIGNAL_MIN = 0.25

export interface ScoreOutcome { score: number, signals: string[] }

/** Rounds to 4 decimals so the recorded score and the returned score are the same number. */
const round4 = (x: number) => Math.round(x * 10000) / 10000

export function scoreFeatures (features: Features): ScoreOutcome {
  let logit = BIAS
  const contributions: Array<[string, number]> = []
  for (const term of TERMS) {
    const c = term.weight * term.value(features)
    logit += c
    if (Math.abs(c) >= SIGNAL_MIN) contributions.push([term.signal, c])
  }
  contributions.sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))
  return { score: round4(1 / (1 + Math.exp(-logit))), signals: contributions.map(([s]) => s) }
}
