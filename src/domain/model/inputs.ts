import type { Features } from '../decision/types.js'
import { INPUT_SCHEMAS, type InputSchema } from './input-schemas.js'

/**
 * The models' inputs, one table: each input's name, the models that use it, the signal code it is reported
 * under when it contributes (several inputs may share a code: their contributions add up), how it is computed
 * from a decision's recorded features, its default, and for the linear model its bound.
 * - `use`: 'linear' (the online logistic regression, learner.ts), 'trees' (gbdt.ts) or 'both'. A name is unique
 *   within each model's inputs; three names (amount_z, merchant_risk_30d, merchant_frauds_7d) are computed
 *   differently for the two models (scaled for the linear one, raw for the trees) and so are two rows.
 * - `default` (0 when not given): what the input reads when its computation gives no finite number, and in a
 *   row stored before the input existed.
 * - `bound` (linear inputs only): the largest magnitude the value takes, or is clipped to (beyond what any real
 *   traffic reaches: a count of 160,000 in an hour for the log-counts). The bounds are what limit one label's
 *   effect on any score (learner.ts); the trees' inputs are not clipped.
 * Each model's inputs are the rows it uses, in table order. Stored models name their inputs and stored rows
 * carry the version of the lists they were made with (input-schemas.ts), so an input may be added anywhere:
 * docs/development.md#a-model-input.
 */
export interface InputDefinition {
  name: string
  use: 'linear' | 'trees' | 'both'
  signal: string
  value(f: Features): number
  default?: number
  bound?: number
}

/** An input as one model reads it: its definition, with the default resolved and, for the trees, no bound. */
export interface ModelInput { name: string, signal: string, value(f: Features): number, default: number, bound?: number }

const v = (f: Features, name: string) => f[name] ?? 0
const log1p = (f: Features, name: string) => Math.log1p(Math.max(0, v(f, name)))
const beyondOne = (f: Features, name: string) => Math.log1p(Math.max(0, v(f, name) - 1))
/** The amount in euros, roughly (currency.ts); the amount as sent in decisions recorded before amount_eur. */
const euros = (f: Features) => f.amount_eur ?? v(f, 'amount')
const at = (f: Features, threshold: number) => euros(f) >= threshold ? 1 : 0
/** Events of one user or device in an hour that make an ordinary session: a login, a retry, a payment or two. */
const SESSION_EVENTS = 3
/** Users of one device that make a household: a couple sharing a tablet, a customer's phone lent to a partner. */
const HOUSEHOLD_USERS = 2
/** Users of one IP address past which sharing says nothing more: a family, an office, a carrier's NAT alike. */
const SHARED_IP_USERS = 10
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

/** A trees input reading a recorded feature as it is (the input's own name unless another is given). */
const raw = (name: string, signal: string, feature = name): InputDefinition => ({ name, use: 'trees', signal, value: f => v(f, feature) })

/** The bound of a log-count input: log1p(160,000). */
const LOG_COUNT = 12
/** An input both models read as the log-count of a recorded count. */
const logCount = (name: string, signal: string, feature: string): InputDefinition => ({ name, use: 'both', signal, value: f => log1p(f, feature), bound: LOG_COUNT })

/**
 * Every input. The linear model's take transforms of order 1 (log-counts, flags, capped amounts); the trees'
 * are recorded features as they are (trees need no scaling), plus ratios a tree cannot form from its splits:
 * the customer's spending profile (mean amounts over 1, 7 and 30 days and the amount against each), each
 * entity's risk from delayed labels (merchant or terminal, card, device, IP, email), time of day.
 */
export const MODEL_INPUTS: readonly InputDefinition[] = [
  // velocity, as log-counts
  { name: 'user_1h', use: 'linear', signal: 'velocity', value: f => log1p(f, 'user_count_1h'), bound: LOG_COUNT },
  { name: 'user_24h', use: 'linear', signal: 'velocity', value: f => log1p(f, 'user_count_24h'), bound: LOG_COUNT },
  { name: 'user_7d', use: 'linear', signal: 'velocity', value: f => log1p(f, 'user_count_7d') / 2, bound: LOG_COUNT / 2 },
  { name: 'user_30d', use: 'linear', signal: 'velocity', value: f => log1p(f, 'user_count_30d') / 3, bound: LOG_COUNT / 3 },
  { name: 'device_1h', use: 'linear', signal: 'velocity', value: f => log1p(f, 'device_count_1h'), bound: LOG_COUNT },
  { name: 'email_1h', use: 'linear', signal: 'velocity', value: f => log1p(f, 'email_count_1h'), bound: LOG_COUNT },
  { name: 'merchant_24h', use: 'linear', signal: 'merchant_velocity', value: f => log1p(f, 'merchant_count_24h') / 3, bound: LOG_COUNT / 3 },
  // network, as log-counts
  { name: 'ip_1h', use: 'linear', signal: 'ip_velocity', value: f => log1p(f, 'ip_count_1h'), bound: LOG_COUNT },
  { name: 'ip_24h', use: 'linear', signal: 'ip_velocity', value: f => log1p(f, 'ip_count_24h') / 2, bound: LOG_COUNT / 2 },
  { name: 'ip_users_24h', use: 'linear', signal: 'ip_fan_out', value: f => beyondOne(f, 'ip_distinct_user_24h'), bound: LOG_COUNT },
  // velocity beyond an ordinary session, and an address's sharing, saturating (the prior's; see model.ts)
  { name: 'user_burst_1h', use: 'linear', signal: 'velocity', value: f => Math.log1p(Math.max(0, v(f, 'user_count_1h') - SESSION_EVENTS)), bound: LOG_COUNT },
  { name: 'device_burst_1h', use: 'linear', signal: 'velocity', value: f => Math.log1p(Math.max(0, v(f, 'device_count_1h') - SESSION_EVENTS)), bound: LOG_COUNT },
  { name: 'ip_shared_24h', use: 'linear', signal: 'ip_fan_out', value: f => Math.min(1, beyondOne(f, 'ip_distinct_user_24h') / Math.log(SHARED_IP_USERS)), bound: 1 },
  // the amount and the customer's spending profile
  { name: 'amount', use: 'trees', signal: 'high_amount', value: f => v(f, 'amount') },
  { name: 'user_count_1h', use: 'trees', signal: 'velocity', value: f => v(f, 'user_count_1h') },
  { name: 'user_count_24h', use: 'trees', signal: 'velocity', value: f => v(f, 'user_count_24h') },
  { name: 'user_count_7d', use: 'trees', signal: 'velocity', value: f => v(f, 'user_count_7d') },
  { name: 'user_count_30d', use: 'trees', signal: 'velocity', value: f => v(f, 'user_count_30d') },
  { name: 'user_mean_24h', use: 'trees', signal: 'amount_anomaly', value: f => mean(f, 'user_sum_24h', 'user_count_24h') },
  { name: 'user_mean_7d', use: 'trees', signal: 'amount_anomaly', value: f => mean(f, 'user_sum_7d', 'user_count_7d') },
  { name: 'user_mean_30d', use: 'trees', signal: 'amount_anomaly', value: f => mean(f, 'user_sum_30d', 'user_count_30d') },
  { name: 'amount_to_mean_24h', use: 'trees', signal: 'amount_anomaly', value: f => toMean(f, 'user_sum_24h', 'user_count_24h') },
  { name: 'amount_to_mean_7d', use: 'trees', signal: 'amount_anomaly', value: f => toMean(f, 'user_sum_7d', 'user_count_7d') },
  { name: 'amount_to_mean_30d', use: 'trees', signal: 'amount_anomaly', value: f => toMean(f, 'user_sum_30d', 'user_count_30d') },
  { name: 'amount_z', use: 'trees', signal: 'amount_anomaly', value: f => v(f, 'amount_z') },
  { name: 'amount_to_mean_30d_before_7d', use: 'trees', signal: 'amount_anomaly', value: f => ratio(v(f, 'amount'), earlierMean(f, '30d', '7d'), 1) },
  { name: 'mean_7d_to_mean_30d_before_7d', use: 'trees', signal: 'amount_anomaly', value: f => ratio(mean(f, 'user_sum_7d', 'user_count_7d'), earlierMean(f, '30d', '7d'), 1) },
  // time
  { name: 'hour_of_day', use: 'trees', signal: 'unusual_time', value: f => v(f, 'hour_of_day') },
  { name: 'weekend', use: 'trees', signal: 'unusual_time', value: f => v(f, 'weekend') },
  // risk of each entity from delayed labels
  { name: 'merchant_count_24h', use: 'trees', signal: 'merchant_velocity', value: f => v(f, 'merchant_count_24h') },
  { name: 'merchant_count_7d', use: 'trees', signal: 'merchant_velocity', value: f => v(f, 'merchant_count_7d') },
  { name: 'merchant_count_30d', use: 'trees', signal: 'merchant_velocity', value: f => v(f, 'merchant_count_30d') },
  { name: 'merchant_risk_10d', use: 'trees', signal: 'merchant_risk', value: f => maturedRisk(f, 'merchant', '10d', '7d') },
  { name: 'merchant_matured_10d', use: 'trees', signal: 'merchant_velocity', value: f => v(f, 'merchant_count_10d') - v(f, 'merchant_count_7d') },
  { name: 'merchant_risk_14d', use: 'trees', signal: 'merchant_risk', value: f => maturedRisk(f, 'merchant', '14d', '7d') },
  { name: 'merchant_risk_30d', use: 'trees', signal: 'merchant_risk', value: f => maturedRisk(f, 'merchant', '30d', '7d') },
  { name: 'merchant_frauds_7d', use: 'trees', signal: 'merchant_risk', value: f => v(f, 'label.merchant_count_7d') },
  { name: 'card_risk_30d', use: 'trees', signal: 'card_risk', value: f => labelledShare(f, 'card', '30d') },
  { name: 'device_risk_30d', use: 'trees', signal: 'device_risk', value: f => labelledShare(f, 'device', '30d') },
  { name: 'ip_risk_30d', use: 'trees', signal: 'ip_risk', value: f => labelledShare(f, 'ip', '30d') },
  { name: 'email_risk_30d', use: 'trees', signal: 'email_risk', value: f => labelledShare(f, 'email', '30d') },
  // network and devices, as counts
  { name: 'device_count_1h', use: 'trees', signal: 'velocity', value: f => v(f, 'device_count_1h') },
  { name: 'device_count_24h', use: 'trees', signal: 'velocity', value: f => v(f, 'device_count_24h') },
  { name: 'email_count_1h', use: 'trees', signal: 'velocity', value: f => v(f, 'email_count_1h') },
  { name: 'ip_count_1h', use: 'trees', signal: 'ip_velocity', value: f => v(f, 'ip_count_1h') },
  { name: 'ip_count_24h', use: 'trees', signal: 'ip_velocity', value: f => v(f, 'ip_count_24h') },
  { name: 'ip_distinct_user_24h', use: 'trees', signal: 'ip_fan_out', value: f => v(f, 'ip_distinct_user_24h') },
  { name: 'ip_reputation_v3', use: 'both', signal: 'ip_reputation_v3', value: f => v(f, 'ip_reputation_v3'), bound: 1 },
  // device
  { name: 'new_device', use: 'both', signal: 'new_device', value: f => v(f, 'device_present') * (1 - v(f, 'device_known')) * v(f, 'user_present'), bound: 1 },
  { name: 'known_device', use: 'linear', signal: 'known_device', value: f => v(f, 'device_known'), bound: 1 },
  { name: 'user_devices_30d', use: 'linear', signal: 'many_devices', value: f => beyondOne(f, 'user_distinct_device_30d'), bound: LOG_COUNT },
  { name: 'device_users_30d', use: 'linear', signal: 'device_sharing', value: f => beyondOne(f, 'device_distinct_user_30d'), bound: LOG_COUNT },
  // a device new to a user the service knows (seen in 30 days): a user's first event has no devices to differ from
  { name: 'device_new_to_user', use: 'linear', signal: 'new_device', value: f => v(f, 'device_present') * (1 - v(f, 'device_known')) * (v(f, 'user_count_30d') > 0 ? 1 : 0), bound: 1 },
  { name: 'device_users_beyond_household', use: 'linear', signal: 'device_sharing', value: f => Math.log1p(Math.max(0, v(f, 'device_distinct_user_30d') - HOUSEHOLD_USERS)), bound: LOG_COUNT },
  { name: 'device_age_days', use: 'trees', signal: 'new_device', value: f => v(f, 'device_known') === 1 ? v(f, 'device_age_days') : -1 },
  { name: 'user_distinct_device_30d', use: 'trees', signal: 'many_devices', value: f => v(f, 'user_distinct_device_30d') },
  { name: 'device_distinct_user_30d', use: 'trees', signal: 'device_sharing', value: f => v(f, 'device_distinct_user_30d') },
  // identity
  { name: 'email_disposable', use: 'both', signal: 'disposable_email', value: f => v(f, 'email_disposable'), bound: 1 },
  { name: 'email_free', use: 'both', signal: 'free_email', value: f => v(f, 'email_free'), bound: 1 },
  { name: 'email_users_30d', use: 'linear', signal: 'identity_sharing', value: f => beyondOne(f, 'email_distinct_user_30d'), bound: LOG_COUNT },
  { name: 'new_account', use: 'linear', signal: 'new_account', value: f => v(f, 'account_age_known') * Math.exp(-v(f, 'account_age_days') / 30), bound: 1 },
  { name: 'first_transaction', use: 'linear', signal: 'new_user', value: f => v(f, 'user_present') * (v(f, 'user_count_30d') === 0 ? 1 : 0), bound: 1 },
  // transaction patterns, scaled (amounts are at most 1e12, amount_z within +-10 and amount_ratio within 0..100: never clipped)
  { name: 'amount_log', use: 'linear', signal: 'high_amount', value: f => (log1p(f, 'amount') - 4) / 2, bound: 12 },
  { name: 'amount_linear', use: 'linear', signal: 'high_amount', value: f => Math.min(euros(f), 5000) / 100, bound: 50 },
  // the amount's size in euros above about 150 (e^5, a few times a typical consumer payment): an event without an
  // amount (a login) has none, and a small amount is no evidence of honesty (card testers pay one euro)
  { name: 'amount_size', use: 'linear', signal: 'high_amount', value: f => Math.max(0, (Math.log1p(euros(f)) - 5) / 2), bound: 12 },
  { name: 'amount_100', use: 'linear', signal: 'high_amount', value: f => at(f, 100), bound: 1 },
  { name: 'amount_250', use: 'linear', signal: 'high_amount', value: f => at(f, 250), bound: 1 },
  { name: 'amount_1000', use: 'linear', signal: 'high_amount', value: f => at(f, 1000), bound: 1 },
  { name: 'amount_10000', use: 'linear', signal: 'high_amount', value: f => at(f, 10000), bound: 1 },
  { name: 'amount_z', use: 'linear', signal: 'amount_anomaly', value: f => Math.max(0, v(f, 'amount_z')) / 3, bound: 10 / 3 },
  { name: 'amount_ratio', use: 'linear', signal: 'amount_anomaly', value: f => Math.log(Math.max(0.01, v(f, 'amount_ratio') || 1)), bound: Math.log(100) },
  // merchant risk from delayed labels, scaled
  { name: 'merchant_risk_30d', use: 'linear', signal: 'merchant_risk', value: f => 4 * v(f, 'merchant_risk_30d'), bound: 4 },
  { name: 'merchant_frauds_7d', use: 'linear', signal: 'merchant_risk', value: f => log1p(f, 'merchant_frauds_7d'), bound: LOG_COUNT },
  // identity, raw
  { name: 'email_distinct_user_30d', use: 'trees', signal: 'identity_sharing', value: f => v(f, 'email_distinct_user_30d') },
  { name: 'account_age_days', use: 'trees', signal: 'new_account', value: f => v(f, 'account_age_known') === 1 ? v(f, 'account_age_days') : -1 },
  // geo and SIM swap
  { name: 'geo_mismatch', use: 'both', signal: 'geo_mismatch', value: f => v(f, 'geo_mismatch'), bound: 1 },
  { name: 'consistent_geo', use: 'both', signal: 'consistent_geo', value: f => v(f, 'consistent_geo'), bound: 1 },
  { name: 'impossible_travel', use: 'linear', signal: 'impossible_travel', value: f => v(f, 'impossible_travel'), bound: 1 },
  { name: 'sim_swap', use: 'linear', signal: 'sim_swap', value: f => v(f, 'sim_swap'), bound: 1 },
  { name: 'travel_kmh', use: 'trees', signal: 'impossible_travel', value: f => v(f, 'travel_kmh') },
  { name: 'sim_swap_confidence', use: 'both', signal: 'sim_swap_confidence', value: f => v(f, 'sim_swap_confidence'), bound: 1 },
  // the kind of event and its outcome: one model for every kind, which splits on it where kinds differ
  raw('event_kind', 'event_kind'),
  raw('outcome_failed', 'failed_attempts'),
  { name: 'amount_eur', use: 'trees', signal: 'high_amount', value: f => euros(f) },
  // account security: failed attempts by the account, its device, its address and the address's network (a
  // credential-stuffing bot sprays one network over many accounts), the network's traffic, the addresses and
  // changes of the account
  raw('failed_user_1h', 'failed_attempts', 'failed.user_count_1h'),
  logCount('failed_user_24h', 'failed_attempts', 'failed.user_count_24h'),
  raw('failed_device_24h', 'failed_attempts', 'failed.device_count_24h'),
  logCount('failed_ip_1h', 'credential_stuffing_ip', 'failed.ip_count_1h'),
  raw('failed_ip_24h', 'credential_stuffing_ip', 'failed.ip_count_24h'),
  logCount('failed_ip24_1h', 'credential_stuffing_ip', 'failed.ip24_count_1h'),
  raw('failed_ip24_24h', 'credential_stuffing_ip', 'failed.ip24_count_24h'),
  raw('ip24_count_1h', 'ip_velocity'),
  raw('ip24_count_24h', 'ip_velocity'),
  raw('ip24_users_24h', 'ip_fan_out', 'ip24_distinct_user_24h'),
  { name: 'ip_new_to_user', use: 'both', signal: 'new_ip', value: f => v(f, 'ip_new_to_user'), bound: 1 },
  raw('user_distinct_ip_30d', 'many_ips'),
  logCount('updates_24h', 'recent_account_change', 'update.user_count_24h'),
  raw('updates_7d', 'recent_account_change', 'update.user_count_7d'),
  // payments and payouts: cards and beneficiaries new to the account, how many it uses, what other accounts
  // paid it (a mule's inflow, from many senders) and how many accounts pay the beneficiary
  raw('card_new_to_user', 'new_card'),
  { name: 'merchant_new_to_user', use: 'both', signal: 'new_beneficiary', value: f => v(f, 'merchant_new_to_user'), bound: 1 },
  raw('user_distinct_card_30d', 'many_cards'),
  raw('user_distinct_merchant_30d', 'many_beneficiaries'),
  raw('inflow_count_24h', 'mule_ring'),
  raw('inflow_count_7d', 'mule_ring'),
  raw('inflow_sum_7d', 'mule_ring'),
  { name: 'inflow_senders_30d', use: 'both', signal: 'mule_ring', value: f => beyondOne(f, 'inflow_distinct_user_30d'), bound: LOG_COUNT },
  raw('merchant_senders_30d', 'mule_ring', 'merchant_distinct_user_30d'),
  // card testing: small payments over many cards from one device, a card's bursts and declines
  { name: 'device_cards_24h', use: 'both', signal: 'card_testing', value: f => beyondOne(f, 'device_distinct_card_24h'), bound: LOG_COUNT },
  raw('card_count_1h', 'card_testing'),
  raw('card_count_24h', 'card_testing'),
  raw('failed_card_24h', 'card_testing', 'failed.card_count_24h'),
  raw('user_distinct_email_30d', 'recent_account_change'),
  // onboarding: the email's domain across accounts and the shape of its local part (made-up addresses)
  raw('email_domain_24h', 'identity_sharing', 'email_domain_count_24h'),
  raw('email_domain_users_30d', 'identity_sharing', 'email_domain_distinct_user_30d'),
  raw('email_local_length', 'machine_email'),
  raw('email_local_digits', 'machine_email'),
  raw('email_local_entropy', 'machine_email'),
  // frauds already known along the links: the account's own, its network's, those paid to it, its device's
  logCount('user_frauds_30d', 'linked_to_fraud', 'label.user_count_30d'),
  raw('ip24_frauds_30d', 'linked_to_fraud', 'label.ip24_count_30d'),
  logCount('inflow_frauds_30d', 'linked_to_fraud', 'label.inflow_count_30d'),
  { name: 'device_frauds_30d', use: 'both', signal: 'linked_to_fraud', value: f => log1p(f, 'label.device_count_30d'), bound: LOG_COUNT },
  // the share of the email domain's events of 30 days known fraud: a ring's throwaway domain, not a mailbox provider's millions
  { name: 'email_domain_risk_30d', use: 'trees', signal: 'linked_to_fraud', value: f => labelledShare(f, 'email_domain', '30d') }
]

export type ModelKind = 'linear' | 'trees'

/**
 * A stored model (learner state, forest, published version) naming inputs this code does not have: it is
 * refused, never scored with its weights or splits moved onto other inputs.
 */
export class UnknownModelInputError extends Error {
  constructor (readonly model: string, readonly unknown: readonly string[]) {
    super(`${model} names model inputs this code does not have: ${unknown.join(', ')}; refused (docs/development.md#a-model-input)`)
    this.name = 'UnknownModelInputError'
  }
}

/**
 * The inputs of each model, from a table, and the name lists stored rows may have been made with: `version`
 * is the schema version of the current lists, the last of `schemas`.
 */
export interface InputSet {
  version: number
  linear: readonly ModelInput[]
  trees: readonly ModelInput[]
  schemas: ReadonlyMap<number, InputSchema>
}

/** Each model's input names in a table, in table order. */
export function namesOf (table: readonly InputDefinition[]): Record<ModelKind, string[]> {
  const names = (kind: ModelKind) => table.filter(d => d.use === kind || d.use === 'both').map(d => d.name)
  return { linear: names('linear'), trees: names('trees') }
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((name, i) => name === b[i])

/**
 * The models' inputs of a table, checked: names unique within each model, a bound on every linear input, and
 * the last schema listing exactly the table's inputs (so that the rows written now name a frozen list).
 */
export function inputSet (table: readonly InputDefinition[], schemas: readonly InputSchema[]): InputSet {
  const inputsOf = (kind: ModelKind): ModelInput[] => table.filter(d => d.use === kind || d.use === 'both')
    .map(d => ({ name: d.name, signal: d.signal, value: d.value, default: d.default ?? 0, bound: kind === 'linear' ? d.bound : undefined }))
  const linear = inputsOf('linear')
  const trees = inputsOf('trees')
  for (const [kind, inputs] of [['linear', linear], ['trees', trees]] as const) {
    const seen = new Set<string>()
    for (const input of inputs) {
      if (seen.has(input.name)) throw new Error(`model inputs: ${input.name} twice among the ${kind} model's inputs`)
      seen.add(input.name)
      if (kind === 'linear' && !(input.bound! > 0 && Math.abs(input.default) <= input.bound!)) throw new Error(`model inputs: ${input.name} needs a bound (the linear model clips to it) at least its default`)
    }
  }
  schemas.forEach((s, i) => { if (s.version !== i + 1) throw new Error(`input schemas: version ${s.version} where ${i + 1} belongs; versions count 1, 2, 3...`) })
  const last = schemas[schemas.length - 1]
  const names = namesOf(table)
  if (last === undefined || !sameList(last.linear, names.linear) || !sameList(last.trees, names.trees)) {
    throw new Error(`model inputs changed: freeze the new lists as the next input schema, ${JSON.stringify({ version: schemas.length + 1, ...names })}, in src/domain/model/input-schemas.ts (docs/development.md#a-model-input)`)
  }
  return { version: last.version, linear, trees, schemas: new Map(schemas.map(s => [s.version, s])) }
}

/** The inputs of this code. */
export const INPUT_SET = inputSet(MODEL_INPUTS, INPUT_SCHEMAS)
/** The linear model's inputs, in their order (learner weights, row.x). */
export const LINEAR_INPUTS = INPUT_SET.linear
/** The trees' inputs, in their order (row.z, training columns). */
export const TREE_INPUTS = INPUT_SET.trees

/** A value within its input's bound (unbounded inputs as they are). */
export const clip = (value: number, bound: number | undefined): number => bound === undefined ? value : Math.max(-bound, Math.min(bound, value))

/** One input's value for a decision, within its bound; its default when not finite. */
export function valueOf (input: ModelInput, f: Features): number {
  const value = input.value(f)
  return Number.isFinite(value) ? clip(value, input.bound) : input.default
}

/** The values of `inputs` for one decision, in their order. */
export function valuesOf (inputs: readonly ModelInput[], f: Features): Float64Array {
  const x = new Float64Array(inputs.length)
  for (let i = 0; i < inputs.length; i++) x[i] = valueOf(inputs[i]!, f)
  return x
}

/** The linear model's input values for one decision, in LINEAR_INPUTS order. */
export const inputValues = (f: Features): Float64Array => valuesOf(LINEAR_INPUTS, f)

/** The trees' input values for one decision, in TREE_INPUTS order. */
export const treeValues = (f: Features): Float64Array => valuesOf(TREE_INPUTS, f)
