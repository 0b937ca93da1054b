/**
 * The name lists stored rows were made with, by schema version: a row stores its values as arrays in the order
 * of its version's lists (row.x the linear model's, row.z the trees'), and is read by name into the current
 * lists (stored-inputs.ts). Append-only and frozen: a version once written to a store names its lists forever.
 * The last version lists exactly the current inputs (inputs.ts refuses to load otherwise, printing the entry to
 * append when an input was added, removed or moved).
 */
export interface InputSchema { version: number, linear: readonly string[], trees: readonly string[] }

/**
 * Version 1: the inputs of the code that first named its stores' lists (issue 34). Learner states, rows,
 * training rows and forests stored without names or version were made with these lists.
 */
const V1: InputSchema = {
  version: 1,
  linear: [
    'user_1h', 'user_24h', 'user_7d', 'user_30d', 'device_1h', 'email_1h', 'merchant_24h', 'ip_1h', 'ip_24h', 'ip_users_24h',
    'ip_reputation_v3', 'new_device', 'known_device', 'user_devices_30d', 'device_users_30d', 'email_disposable', 'email_free',
    'email_users_30d', 'new_account', 'first_transaction', 'amount_log', 'amount_linear', 'amount_100', 'amount_250', 'amount_1000',
    'amount_10000', 'amount_z', 'amount_ratio', 'merchant_risk_30d', 'merchant_frauds_7d', 'geo_mismatch', 'consistent_geo',
    'impossible_travel', 'sim_swap', 'sim_swap_confidence'
  ],
  trees: [
    'amount', 'user_count_1h', 'user_count_24h', 'user_count_7d', 'user_count_30d', 'user_mean_24h', 'user_mean_7d', 'user_mean_30d',
    'amount_to_mean_24h', 'amount_to_mean_7d', 'amount_to_mean_30d', 'amount_z', 'amount_to_mean_30d_before_7d',
    'mean_7d_to_mean_30d_before_7d', 'hour_of_day', 'weekend', 'merchant_count_24h', 'merchant_count_7d', 'merchant_count_30d',
    'merchant_risk_10d', 'merchant_matured_10d', 'merchant_risk_14d', 'merchant_risk_30d', 'merchant_frauds_7d', 'card_risk_30d',
    'device_risk_30d', 'ip_risk_30d', 'email_risk_30d', 'device_count_1h', 'device_count_24h', 'email_count_1h', 'ip_count_1h',
    'ip_count_24h', 'ip_distinct_user_24h', 'ip_reputation_v3', 'new_device', 'device_age_days', 'user_distinct_device_30d',
    'device_distinct_user_30d', 'email_disposable', 'email_free', 'email_distinct_user_30d', 'account_age_days', 'geo_mismatch',
    'consistent_geo', 'travel_kmh', 'sim_swap_confidence'
  ]
}

/**
 * Version 2: the prior's inputs for a new tenant's ordinary traffic (issue 35, docs/adaptive-scoring.md#the-prior):
 * velocity beyond a session, an address's sharing saturating, a device new to a known user, a device's users
 * beyond a household, the amount's size in euros.
 */
const V2: InputSchema = {
  version: 2,
  linear: [
    'user_1h', 'user_24h', 'user_7d', 'user_30d', 'device_1h', 'email_1h', 'merchant_24h', 'ip_1h', 'ip_24h', 'ip_users_24h',
    'user_burst_1h', 'device_burst_1h', 'ip_shared_24h', 'ip_reputation_v3', 'new_device', 'known_device', 'user_devices_30d',
    'device_users_30d', 'device_new_to_user', 'device_users_beyond_household', 'email_disposable', 'email_free', 'email_users_30d',
    'new_account', 'first_transaction', 'amount_log', 'amount_linear', 'amount_size', 'amount_100', 'amount_250', 'amount_1000',
    'amount_10000', 'amount_z', 'amount_ratio', 'merchant_risk_30d', 'merchant_frauds_7d', 'geo_mismatch', 'consistent_geo',
    'impossible_travel', 'sim_swap', 'sim_swap_confidence'
  ],
  trees: V1.trees
}

/**
 * Version 3 (issue 35): inputs per use case, added after version 2's lists: the event kind and its outcome,
 * failed attempts per account, device, address and network, the network's traffic, what is new to the account,
 * recent account changes, a payee's inflow, the email's domain and shape, and frauds known along the links.
 */
const V3: InputSchema = {
  version: 3,
  linear: [
    ...V2.linear,
    'failed_user_24h', 'failed_ip_1h', 'failed_ip24_1h', 'ip_new_to_user', 'updates_24h', 'merchant_new_to_user',
    'inflow_senders_30d', 'device_cards_24h', 'user_frauds_30d', 'inflow_frauds_30d', 'device_frauds_30d'
  ],
  trees: [
    ...V2.trees,
    'event_kind', 'outcome_failed', 'amount_eur', 'failed_user_1h', 'failed_user_24h', 'failed_device_24h',
    'failed_ip_1h', 'failed_ip_24h', 'failed_ip24_1h', 'failed_ip24_24h', 'ip24_count_1h', 'ip24_count_24h',
    'ip24_users_24h', 'ip_new_to_user', 'user_distinct_ip_30d', 'updates_24h', 'updates_7d', 'card_new_to_user',
    'merchant_new_to_user', 'user_distinct_card_30d', 'user_distinct_merchant_30d', 'inflow_count_24h',
    'inflow_count_7d', 'inflow_sum_7d', 'inflow_senders_30d', 'merchant_senders_30d', 'device_cards_24h',
    'card_count_1h', 'card_count_24h', 'failed_card_24h', 'user_distinct_email_30d', 'email_domain_24h',
    'email_domain_users_30d', 'email_local_length', 'email_local_digits', 'email_local_entropy', 'user_frauds_30d',
    'ip24_frauds_30d', 'inflow_frauds_30d', 'device_frauds_30d'
  ]
}

/**
 * Version 4 (issue 35): the share of the email domain's events of the last 30 days known fraud, after version
 * 3's trees list (synthetic identities and mule accounts of one ring share a made-up domain).
 */
const V4: InputSchema = { version: 4, linear: V3.linear, trees: [...V3.trees, 'email_domain_risk_30d'] }

export const INPUT_SCHEMAS: readonly InputSchema[] = [V1, V2, V3, V4]

/** The version of a store's row or learner state that carries none: made before versions were stored. */
export const UNVERSIONED = 1
