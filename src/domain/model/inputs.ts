import type { Features } from '../decision/types.js'

/**
 * The model's inputs: each a transform of recorded features to a number of order 1, and the signal code it
 * is reported under when it contributes. Several inputs may share a code (their contributions add up).
 */
export interface ModelInput { name: string, signal: string, value(f: Features): number }

const v = (f: Features, name: string) => f[name] ?? 0
const log1p = (f: Features, name: string) => Math.log1p(Math.max(0, v(f, name)))
const beyondOne = (f: Features, name: string) => Math.log1p(Math.max(0, v(f, name) - 1))
const at = (f: Features, threshold: number) => v(f, 'amount') >= threshold ? 1 : 0

export const INPUTS: readonly ModelInput[] = [
  // velocity
  { name: 'user_1h', signal: 'velocity', value: f => log1p(f, 'user_count_1h') },
  { name: 'user_24h', signal: 'velocity', value: f => log1p(f, 'user_count_24h') },
  { name: 'user_7d', signal: 'velocity', value: f => log1p(f, 'user_count_7d') / 2 },
  { name: 'user_30d', signal: 'velocity', value: f => log1p(f, 'user_count_30d') / 3 },
  { name: 'device_1h', signal: 'velocity', value: f => log1p(f, 'device_count_1h') },
  { name: 'email_1h', signal: 'velocity', value: f => log1p(f, 'email_count_1h') },
  { name: 'merchant_24h', signal: 'merchant_velocity', value: f => log1p(f, 'merchant_count_24h') / 3 },
  // network
  { name: 'ip_1h', signal: 'ip_velocity', value: f => log1p(f, 'ip_count_1h') },
  { name: 'ip_24h', signal: 'ip_velocity', value: f => log1p(f, 'ip_count_24h') / 2 },
  { name: 'ip_users_24h', signal: 'ip_fan_out', value: f => beyondOne(f, 'ip_distinct_user_24h') },
  { name: 'ip_reputation_v3', signal: 'ip_reputation_v3', value: f => v(f, 'ip_reputation_v3') },
  // device
  { name: 'new_device', signal: 'new_device', value: f => v(f, 'device_present') * (1 - v(f, 'device_known')) * v(f, 'user_present') },
  { name: 'known_device', signal: 'known_device', value: f => v(f, 'device_known') },
  { name: 'user_devices_30d', signal: 'many_devices', value: f => beyondOne(f, 'user_distinct_device_30d') },
  { name: 'device_users_30d', signal: 'device_sharing', value: f => beyondOne(f, 'device_distinct_user_30d') },
  // identity
  { name: 'email_disposable', signal: 'disposable_email', value: f => v(f, 'email_disposable') },
  { name: 'email_free', signal: 'free_email', value: f => v(f, 'email_free') },
  { name: 'email_users_30d', signal: 'identity_sharing', value: f => beyondOne(f, 'email_distinct_user_30d') },
  { name: 'new_account', signal: 'new_account', value: f => v(f, 'account_age_known') * Math.exp(-v(f, 'account_age_days') / 30) },
  { name: 'first_transaction', signal: 'new_user', value: f => v(f, 'user_present') * (v(f, 'user_count_30d') === 0 ? 1 : 0) },
  // transaction patterns
  { name: 'amount_log', signal: 'high_amount', value: f => (log1p(f, 'amount') - 4) / 2 },
  { name: 'amount_linear', signal: 'high_amount', value: f => Math.min(v(f, 'amount'), 5000) / 100 },
  { name: 'amount_100', signal: 'high_amount', value: f => at(f, 100) },
  { name: 'amount_250', signal: 'high_amount', value: f => at(f, 250) },
  { name: 'amount_1000', signal: 'high_amount', value: f => at(f, 1000) },
  { name: 'amount_10000', signal: 'high_amount', value: f => at(f, 10000) },
  { name: 'amount_z', signal: 'amount_anomaly', value: f => Math.max(0, v(f, 'amount_z')) / 3 },
  { name: 'amount_ratio', signal: 'amount_anomaly', value: f => Math.log(Math.max(0.01, v(f, 'amount_ratio') || 1)) },
  // merchant risk from delayed labels
  { name: 'merchant_risk_30d', signal: 'merchant_risk', value: f => 4 * v(f, 'merchant_risk_30d') },
  { name: 'merchant_frauds_7d', signal: 'merchant_risk', value: f => log1p(f, 'merchant_frauds_7d') },
  // geo
  { name: 'geo_mismatch', signal: 'geo_mismatch', value: f => v(f, 'geo_mismatch') },
  { name: 'consistent_geo', signal: 'consistent_geo', value: f => v(f, 'consistent_geo') },
  { name: 'impossible_travel', signal: 'impossible_travel', value: f => v(f, 'impossible_travel') },
  // SIM swap
  { name: 'sim_swap', signal: 'sim_swap', value: f => v(f, 'sim_swap') },
  { name: 'sim_swap_confidence', signal: 'sim_swap_confidence', value: f => v(f, 'sim_swap_confidence') }
]

/** The values of `inputs` for one decision, in their order; an input not known (undefined) or not finite reads 0. */
export function valuesOf (inputs: ReadonlyArray<ModelInput | undefined>, f: Features): Float64Array {
  const x = new Float64Array(inputs.length)
  for (let i = 0; i < inputs.length; i++) {
    const value = inputs[i]?.value(f) ?? 0
    x[i] = Number.isFinite(value) ? value : 0
  }
  return x
}

/** The inputs' values for one decision, in INPUTS order. */
export const inputValues = (f: Features): Float64Array => valuesOf(INPUTS, f)
