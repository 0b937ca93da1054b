import type { Features } from '../decision/types.js'

/**
 * The model's inputs: each a transform of recorded features to a number of order 1, and the signal code it
 * is reported under when it contributes. Several inputs may share a code (their contributions add up).
 * `bound`: the largest magnitude the value takes, or is clipped to (beyond what any real traffic reaches: a
 * count of 160,000 in an hour for the log-counts). The bounds are what limit one label's effect on any score
 * (learner.ts); the trees' inputs have none.
 */
export interface ModelInput { name: string, signal: string, value(f: Features): number, bound?: number }

const v = (f: Features, name: string) => f[name] ?? 0
const log1p = (f: Features, name: string) => Math.log1p(Math.max(0, v(f, name)))
const beyondOne = (f: Features, name: string) => Math.log1p(Math.max(0, v(f, name) - 1))
const at = (f: Features, threshold: number) => v(f, 'amount') >= threshold ? 1 : 0

/** The bound of a log-count input: log1p(160,000). */
const LOG_COUNT = 12

export const INPUTS: readonly ModelInput[] = [
  // velocity
  { name: 'user_1h', signal: 'velocity', value: f => log1p(f, 'user_count_1h'), bound: LOG_COUNT },
  { name: 'user_24h', signal: 'velocity', value: f => log1p(f, 'user_count_24h'), bound: LOG_COUNT },
  { name: 'user_7d', signal: 'velocity', value: f => log1p(f, 'user_count_7d') / 2, bound: LOG_COUNT / 2 },
  { name: 'user_30d', signal: 'velocity', value: f => log1p(f, 'user_count_30d') / 3, bound: LOG_COUNT / 3 },
  { name: 'device_1h', signal: 'velocity', value: f => log1p(f, 'device_count_1h'), bound: LOG_COUNT },
  { name: 'email_1h', signal: 'velocity', value: f => log1p(f, 'email_count_1h'), bound: LOG_COUNT },
  { name: 'merchant_24h', signal: 'merchant_velocity', value: f => log1p(f, 'merchant_count_24h') / 3, bound: LOG_COUNT / 3 },
  // network
  { name: 'ip_1h', signal: 'ip_velocity', value: f => log1p(f, 'ip_count_1h'), bound: LOG_COUNT },
  { name: 'ip_24h', signal: 'ip_velocity', value: f => log1p(f, 'ip_count_24h') / 2, bound: LOG_COUNT / 2 },
  { name: 'ip_users_24h', signal: 'ip_fan_out', value: f => beyondOne(f, 'ip_distinct_user_24h'), bound: LOG_COUNT },
  { name: 'ip_reputation_v3', signal: 'ip_reputation_v3', value: f => v(f, 'ip_reputation_v3'), bound: 1 },
  // device
  { name: 'new_device', signal: 'new_device', value: f => v(f, 'device_present') * (1 - v(f, 'device_known')) * v(f, 'user_present'), bound: 1 },
  { name: 'known_device', signal: 'known_device', value: f => v(f, 'device_known'), bound: 1 },
  { name: 'user_devices_30d', signal: 'many_devices', value: f => beyondOne(f, 'user_distinct_device_30d'), bound: LOG_COUNT },
  { name: 'device_users_30d', signal: 'device_sharing', value: f => beyondOne(f, 'device_distinct_user_30d'), bound: LOG_COUNT },
  // identity
  { name: 'email_disposable', signal: 'disposable_email', value: f => v(f, 'email_disposable'), bound: 1 },
  { name: 'email_free', signal: 'free_email', value: f => v(f, 'email_free'), bound: 1 },
  { name: 'email_users_30d', signal: 'identity_sharing', value: f => beyondOne(f, 'email_distinct_user_30d'), bound: LOG_COUNT },
  { name: 'new_account', signal: 'new_account', value: f => v(f, 'account_age_known') * Math.exp(-v(f, 'account_age_days') / 30), bound: 1 },
  { name: 'first_transaction', signal: 'new_user', value: f => v(f, 'user_present') * (v(f, 'user_count_30d') === 0 ? 1 : 0), bound: 1 },
  // transaction patterns (amounts are at most 1e12, amount_z within +-10 and amount_ratio within 0..100: never clipped)
  { name: 'amount_log', signal: 'high_amount', value: f => (log1p(f, 'amount') - 4) / 2, bound: 12 },
  { name: 'amount_linear', signal: 'high_amount', value: f => Math.min(v(f, 'amount'), 5000) / 100, bound: 50 },
  { name: 'amount_100', signal: 'high_amount', value: f => at(f, 100), bound: 1 },
  { name: 'amount_250', signal: 'high_amount', value: f => at(f, 250), bound: 1 },
  { name: 'amount_1000', signal: 'high_amount', value: f => at(f, 1000), bound: 1 },
  { name: 'amount_10000', signal: 'high_amount', value: f => at(f, 10000), bound: 1 },
  { name: 'amount_z', signal: 'amount_anomaly', value: f => Math.max(0, v(f, 'amount_z')) / 3, bound: 10 / 3 },
  { name: 'amount_ratio', signal: 'amount_anomaly', value: f => Math.log(Math.max(0.01, v(f, 'amount_ratio') || 1)), bound: Math.log(100) },
  // merchant risk from delayed labels
  { name: 'merchant_risk_30d', signal: 'merchant_risk', value: f => 4 * v(f, 'merchant_risk_30d'), bound: 4 },
  { name: 'merchant_frauds_7d', signal: 'merchant_risk', value: f => log1p(f, 'merchant_frauds_7d'), bound: LOG_COUNT },
  // geo
  { name: 'geo_mismatch', signal: 'geo_mismatch', value: f => v(f, 'geo_mismatch'), bound: 1 },
  { name: 'consistent_geo', signal: 'consistent_geo', value: f => v(f, 'consistent_geo'), bound: 1 },
  { name: 'impossible_travel', signal: 'impossible_travel', value: f => v(f, 'impossible_travel'), bound: 1 },
  // SIM swap
  { name: 'sim_swap', signal: 'sim_swap', value: f => v(f, 'sim_swap'), bound: 1 },
  { name: 'sim_swap_confidence', signal: 'sim_swap_confidence', value: f => v(f, 'sim_swap_confidence'), bound: 1 }
]

/** A value within its input's bound (unbounded inputs as they are). */
export const clip = (value: number, bound: number | undefined): number => bound === undefined ? value : Math.max(-bound, Math.min(bound, value))

/**
 * The values of `inputs` for one decision, in their order, each within its bound; an input not known
 * (undefined) or not finite reads 0.
 */
export function valuesOf (inputs: ReadonlyArray<ModelInput | undefined>, f: Features): Float64Array {
  const x = new Float64Array(inputs.length)
  for (let i = 0; i < inputs.length; i++) {
    const value = inputs[i]?.value(f) ?? 0
    x[i] = Number.isFinite(value) ? clip(value, inputs[i]?.bound) : 0
  }
  return x
}

/** The inputs' values for one decision, in INPUTS order. */
export const inputValues = (f: Features): Float64Array => valuesOf(INPUTS, f)
