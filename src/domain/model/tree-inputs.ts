import type { Features } from '../decision/types.js'
import { valuesOf, type ModelInput } from './inputs.js'

const v = (f: Features, name: string) => f[name] ?? 0
/** Sum over count of a window, 0 without history. */
const mean = (f: Features, sum: string, count: string) => v(f, count) > 0 ? v(f, sum) / v(f, count) : 0
/** The amount over the customer's mean amount of a window, 1 without history. */
const toMean = (f: Features, sum: string, count: string) => { const m = mean(f, sum, count); return m > 0 ? v(f, 'amount') / m : 1 }
/**
 * The customer's mean amount over a window leaving out its most recent part: a spending profile that a
 * compromise of the last `recent` days has not moved yet. 0 without such history.
 */
const earlierMean = (f: Features, window: string, recent: string) => {
  const n = v(f, `user_count_${window}`) - v(f, `user_count_${recent}`)
  return n > 0 ? (v(f, `user_sum_${window}`) - v(f, `user_sum_${recent}`)) / n : 0
}
/** a / b, `otherwise` when b is 0. */
const ratio = (a: number, b: number, otherwise: number) => b > 0 ? a / b : otherwise
/**
 * Share of an entity's transactions of a window later labelled fraudulent, leaving out the most recent
 * `recent` window whose labels have mostly not arrived yet: (frauds in window - frauds in recent) / (count in
 * window - count in recent).
 */
const maturedRisk = (f: Features, entity: string, window: string, recent: string) => {
  const n = v(f, `${entity}_count_${window}`) - v(f, `${entity}_count_${recent}`)
  return n > 0 ? Math.max(0, v(f, `label.${entity}_count_${window}`) - v(f, `label.${entity}_count_${recent}`)) / n : 0
}
/** Share of an entity's transactions of a window labelled fraudulent so far. */
const labelledShare = (f: Features, entity: string, window: string) => {
  const n = v(f, `${entity}_count_${window}`)
  return n > 0 ? v(f, `label.${entity}_count_${window}`) / n : 0
}

/**
 * The trees' inputs: recorded features as they are (trees need no scaling), plus ratios a tree cannot form
 * from its splits: the customer's spending profile (mean amounts over 1, 7 and 30 days and the amount against
 * each), each entity's risk from delayed labels (merchant or terminal, card, device, IP, email), time of day.
 * Each reports under a signal code, as the linear model's inputs do.
 */
export const TREE_INPUTS: readonly ModelInput[] = [
  { name: 'amount', signal: 'high_amount', value: f => v(f, 'amount') },
  // the customer's spending profile
  { name: 'user_count_1h', signal: 'velocity', value: f => v(f, 'user_count_1h') },
  { name: 'user_count_24h', signal: 'velocity', value: f => v(f, 'user_count_24h') },
  { name: 'user_count_7d', signal: 'velocity', value: f => v(f, 'user_count_7d') },
  { name: 'user_count_30d', signal: 'velocity', value: f => v(f, 'user_count_30d') },
  { name: 'user_mean_24h', signal: 'amount_anomaly', value: f => mean(f, 'user_sum_24h', 'user_count_24h') },
  { name: 'user_mean_7d', signal: 'amount_anomaly', value: f => mean(f, 'user_sum_7d', 'user_count_7d') },
  { name: 'user_mean_30d', signal: 'amount_anomaly', value: f => mean(f, 'user_sum_30d', 'user_count_30d') },
  { name: 'amount_to_mean_24h', signal: 'amount_anomaly', value: f => toMean(f, 'user_sum_24h', 'user_count_24h') },
  { name: 'amount_to_mean_7d', signal: 'amount_anomaly', value: f => toMean(f, 'user_sum_7d', 'user_count_7d') },
  { name: 'amount_to_mean_30d', signal: 'amount_anomaly', value: f => toMean(f, 'user_sum_30d', 'user_count_30d') },
  { name: 'amount_z', signal: 'amount_anomaly', value: f => v(f, 'amount_z') },
  { name: 'amount_to_mean_30d_before_7d', signal: 'amount_anomaly', value: f => ratio(v(f, 'amount'), earlierMean(f, '30d', '7d'), 1) },
  { name: 'mean_7d_to_mean_30d_before_7d', signal: 'amount_anomaly', value: f => ratio(mean(f, 'user_sum_7d', 'user_count_7d'), earlierMean(f, '30d', '7d'), 1) },
  // time
  { name: 'hour_of_day', signal: 'unusual_time', value: f => v(f, 'hour_of_day') },
  { name: 'weekend', signal: 'unusual_time', value: f => v(f, 'weekend') },
  // risk of each entity from delayed labels
  { name: 'merchant_count_24h', signal: 'merchant_velocity', value: f => v(f, 'merchant_count_24h') },
  { name: 'merchant_count_7d', signal: 'merchant_velocity', value: f => v(f, 'merchant_count_7d') },
  { name: 'merchant_count_30d', signal: 'merchant_velocity', value: f => v(f, 'merchant_count_30d') },
  { name: 'merchant_risk_10d', signal: 'merchant_risk', value: f => maturedRisk(f, 'merchant', '10d', '7d') },
  { name: 'merchant_matured_10d', signal: 'merchant_velocity', value: f => v(f, 'merchant_count_10d') - v(f, 'merchant_count_7d') },
  { name: 'merchant_risk_14d', signal: 'merchant_risk', value: f => maturedRisk(f, 'merchant', '14d', '7d') },
  { name: 'merchant_risk_30d', signal: 'merchant_risk', value: f => maturedRisk(f, 'merchant', '30d', '7d') },
  { name: 'merchant_frauds_7d', signal: 'merchant_risk', value: f => v(f, 'label.merchant_count_7d') },
  { name: 'card_risk_30d', signal: 'card_risk', value: f => labelledShare(f, 'card', '30d') },
  { name: 'device_risk_30d', signal: 'device_risk', value: f => labelledShare(f, 'device', '30d') },
  { name: 'ip_risk_30d', signal: 'ip_risk', value: f => labelledShare(f, 'ip', '30d') },
  { name: 'email_risk_30d', signal: 'email_risk', value: f => labelledShare(f, 'email', '30d') },
  // network and devices
  { name: 'device_count_1h', signal: 'velocity', value: f => v(f, 'device_count_1h') },
  { name: 'device_count_24h', signal: 'velocity', value: f => v(f, 'device_count_24h') },
  { name: 'email_count_1h', signal: 'velocity', value: f => v(f, 'email_count_1h') },
  { name: 'ip_count_1h', signal: 'ip_velocity', value: f => v(f, 'ip_count_1h') },
  { name: 'ip_count_24h', signal: 'ip_velocity', value: f => v(f, 'ip_count_24h') },
  { name: 'ip_distinct_user_24h', signal: 'ip_fan_out', value: f => v(f, 'ip_distinct_user_24h') },
  { name: 'ip_reputation_v3', signal: 'ip_reputation_v3', value: f => v(f, 'ip_reputation_v3') },
  { name: 'new_device', signal: 'new_device', value: f => v(f, 'device_present') * (1 - v(f, 'device_known')) * v(f, 'user_present') },
  { name: 'device_age_days', signal: 'new_device', value: f => v(f, 'device_known') === 1 ? v(f, 'device_age_days') : -1 },
  { name: 'user_distinct_device_30d', signal: 'many_devices', value: f => v(f, 'user_distinct_device_30d') },
  { name: 'device_distinct_user_30d', signal: 'device_sharing', value: f => v(f, 'device_distinct_user_30d') },
  // identity
  { name: 'email_disposable', signal: 'disposable_email', value: f => v(f, 'email_disposable') },
  { name: 'email_free', signal: 'free_email', value: f => v(f, 'email_free') },
  { name: 'email_distinct_user_30d', signal: 'identity_sharing', value: f => v(f, 'email_distinct_user_30d') },
  { name: 'account_age_days', signal: 'new_account', value: f => v(f, 'account_age_known') === 1 ? v(f, 'account_age_days') : -1 },
  // geo and SIM swap
  { name: 'geo_mismatch', signal: 'geo_mismatch', value: f => v(f, 'geo_mismatch') },
  { name: 'consistent_geo', signal: 'consistent_geo', value: f => v(f, 'consistent_geo') },
  { name: 'travel_kmh', signal: 'impossible_travel', value: f => v(f, 'travel_kmh') },
  { name: 'sim_swap_confidence', signal: 'sim_swap_confidence', value: f => v(f, 'sim_swap_confidence') }
]

/** The trees' input values for one decision, in TREE_INPUTS order. */
export const treeValues = (f: Features): Float64Array => valuesOf(TREE_INPUTS, f)
