import type { Features, ScoreRequest } from '../decision/types.js'
import { amountInEuros } from './currency.js'
import { countryMismatch, geoFacts, IMPOSSIBLE_KMH, travelSpeedKmh, type GeoPoint } from './geo.js'
import { accountAgeDays, emailDomain, emailShape, isDisposableDomain, isFreeMailDomain } from './identity.js'
import { failedOutcome } from './velocity-spec.js'

const DAY_MS = 86_400_000
/**
 * The least spread an amount is measured against, as a share of the customer's mean: consumer amounts vary by
 * about half their mean (and more), so two payments of 47 and 52 say nothing of a third of 110. Without the
 * floor, a short history's sample deviation made ordinary variation ten deviations away.
 */
const AMOUNT_SPREAD_FLOOR = 0.5
/** A SIM swap counts as recent for 3 days; its confidence fades out over 14. */
const SIM_SWAP_RECENT_MS = 3 * DAY_MS
const SIM_SWAP_FADE_MS = 14 * DAY_MS

export interface SimSwap { confidence: number, at_ms: number }
export interface LastLocation { point: GeoPoint, at_ms: number }

/** What the scoring service read from local state for one request, besides the request itself. */
export interface FeatureInputs {
  /** Velocity features (MODEL_NEEDS and the rules' needs), by featureName(). */
  velocity: Features
  /** When this user was first seen with this device (ms), if ever. */
  deviceFirstSeenMs: number | undefined
  /** Whether the user was seen in the request's country before (within the distinct-country window). */
  countrySeenBefore: boolean
  /**
   * When the user was last seen with the request's IP, card and merchant or beneficiary (ms), if within the
   * distinct windows: undefined for one new to the account. Absent: not looked up (nothing reads as new).
   */
  lastSeenWithUser?: { ip: number | undefined, card: number | undefined, merchant: number | undefined }
  lastLocation: LastLocation | undefined
  simSwap: SimSwap | undefined
  /** ip_reputation_v3 of the request's IP from the tenant's reputation list: 0 (good) .. 1 (bad), if listed. */
  ipReputation: number | undefined
  nowMs: number
}

const v = (f: Features, name: string) => f[name] ?? 0

/**
 * Every Stage 2 feature of a request, pure: device, identity, network, transaction patterns, merchant risk,
 * geo and SIM swap. Recorded with the decision, so the decision can be re-evaluated from the record alone.
 */
export function extractFeatures (request: ScoreRequest, inputs: FeatureInputs): Features {
  const velocity = inputs.velocity
  const { nowMs } = inputs
  const amount = request.amount ?? 0

  // identity
  const domain = emailDomain(request.email)
  const age = accountAgeDays(request.custom, nowMs)

  // transaction patterns: the amount against the user's events of the same kind in the last 30 days (before this
  // one): a payment against the user's payments, never against its logins, which carry no amount. An event without
  // an amount has no amount anomaly.
  const hasAmount = amount > 0
  const n = hasAmount ? v(velocity, 'user_event_count_30d') : 0
  const mean = n > 0 ? v(velocity, 'user_event_sum_30d') / n : 0
  const std = n > 1 ? Math.sqrt(Math.max(0, v(velocity, 'user_event_sumsq_30d') / n - mean * mean)) : 0

  // merchant risk: share of its transactions labelled fraudulent, outside the last 7 days (labels arrive late)
  const matured = v(velocity, 'merchant_count_30d') - v(velocity, 'merchant_count_7d')
  const maturedFrauds = v(velocity, 'label.merchant_count_30d') - v(velocity, 'label.merchant_count_7d')

  // geo
  const geo = geoFacts(request.geo)
  const travelKmh = Math.round(travelSpeedKmh(inputs.lastLocation, geo.point, nowMs))

  // SIM swap reported for the user
  const swap = inputs.simSwap
  const since = swap === undefined ? Infinity : nowMs - swap.at_ms

  // time of day and weekday of the event, in UTC (requests carry no time zone)
  const at = new Date(nowMs)

  // what the account has not used before, once it has a history to differ from
  const known = v(velocity, 'user_count_30d') > 0 ? 1 : 0
  const seen = inputs.lastSeenWithUser
  const newTo = (value: unknown, lastSeenMs: number | undefined) => seen !== undefined && value !== undefined && lastSeenMs === undefined ? known : 0
  const shape = emailShape(request.email)

  // Known at the event's time: a backdated event's device first seen after it was new then.
  const deviceKnown = inputs.deviceFirstSeenMs !== undefined && inputs.deviceFirstSeenMs <= nowMs
  // One literal (one object shape), added to the velocity features after them.
  const extracted = {
    amount,
    amount_eur: amountInEuros(amount, request.currency),
    hour_of_day: at.getUTCHours(),
    weekend: at.getUTCDay() === 0 || at.getUTCDay() === 6 ? 1 : 0,
    user_present: request.user_id === undefined ? 0 : 1,
    device_present: request.device_id === undefined ? 0 : 1,
    device_known: deviceKnown ? 1 : 0,
    device_age_days: deviceKnown ? (nowMs - inputs.deviceFirstSeenMs!) / DAY_MS : 0,
    email_present: domain === undefined ? 0 : 1,
    email_disposable: domain !== undefined && isDisposableDomain(domain) ? 1 : 0,
    email_free: domain !== undefined && isFreeMailDomain(domain) ? 1 : 0,
    account_age_known: age === undefined ? 0 : 1,
    account_age_days: age ?? 0,
    ip_reputation_v3: inputs.ipReputation ?? 0,
    user_amount_mean_30d: mean,
    user_amount_std_30d: std,
    amount_z: n > 1 ? Math.max(-10, Math.min(10, (amount - mean) / Math.max(std, AMOUNT_SPREAD_FLOOR * mean, 1))) : 0,
    amount_ratio: n > 0 && mean > 0 ? Math.min(100, amount / mean) : 1,
    merchant_risk_30d: matured > 0 ? Math.max(0, maturedFrauds) / matured : 0,
    merchant_frauds_7d: v(velocity, 'label.merchant_count_7d'),
    geo_mismatch: countryMismatch(geo),
    consistent_geo: geo.country !== undefined && inputs.countrySeenBefore && v(velocity, 'user_distinct_country_30d') === 1 ? 1 : 0,
    travel_kmh: travelKmh,
    impossible_travel: travelKmh > IMPOSSIBLE_KMH ? 1 : 0,
    sim_swap: since >= 0 && since <= SIM_SWAP_RECENT_MS ? 1 : 0,
    sim_swap_confidence: since >= 0 && since <= SIM_SWAP_FADE_MS ? round4(swap!.confidence * (1 - since / SIM_SWAP_FADE_MS)) : 0,
    event_kind: Object.hasOwn(EVENT_KINDS, request.event) ? EVENT_KINDS[request.event]! : 0,
    outcome_failed: failedOutcome(request) ? 1 : 0,
    ip_new_to_user: newTo(request.ip, seen?.ip),
    card_new_to_user: newTo(request.custom?.card_fingerprint, seen?.card),
    merchant_new_to_user: newTo(request.custom?.merchant_id ?? request.custom?.terminal_id, seen?.merchant),
    email_local_length: shape.length,
    email_local_digits: round4(shape.digits),
    email_local_entropy: round4(shape.entropy)
  }
  return Object.assign({ ...velocity }, extracted)
}

const round4 = (x: number) => Math.round(x * 10000) / 10000

/**
 * The event kinds the service knows, as a number a model can split on (0: any other kind). Never renumber:
 * recorded decisions keep the number.
 */
export const EVENT_KINDS: Readonly<Record<string, number>> = { payment: 1, login: 2, signup: 3, payout: 4, account_update: 5, transaction: 6 }

/** The signals rules can read (signals.<code>): the Stage 2 signal features of the request. */
export function ruleSignals (f: Features): Record<string, number> {
  const out: Record<string, number> = {}
  for (const code of RULE_SIGNALS) out[code] = f[code] ?? 0
  return out
}

const RULE_SIGNALS = ['sim_swap', 'sim_swap_confidence', 'ip_reputation_v3', 'geo_mismatch', 'consistent_geo', 'impossible_travel', 'device_known', 'email_disposable'] as const
