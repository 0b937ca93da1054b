import type { Features } from '../decision/types.js'
import { INPUTS, inputValues } from './inputs.js'

/**
 * A scoring model: logistic regression over INPUTS. A tenant's model starts as the global PRIOR and is
 * replaced by versions the model-trainer topology publishes as labels arrive; decisions record the version.
 */
export interface ScoringModel {
  version: string
  bias: number
  /** By input name; an input a model does not name weighs 0. */
  weights: Record<string, number>
}

/**
 * The global prior: hand-set weights expressing common fraud knowledge (velocity, new devices, throwaway
 * identities, bad IPs, geo contradictions, SIM swaps and large or unusual amounts raise risk; known devices
 * and a consistent country lower it). A plain purchase by a known user on a known device scores about 0.01.
 */
export const PRIOR: ScoringModel = {
  version: 'prior-2026-11-23',
  bias: -4.2,
  weights: {
    user_1h: 1, user_24h: 0.15, user_7d: 0, user_30d: -0.2, device_1h: 0.4, email_1h: 0.3, merchant_24h: 0,
    ip_1h: 0.4, ip_24h: 0.1, ip_users_24h: 0.6, ip_reputation_v3: 3,
    new_device: 0.9, known_device: -0.8, user_devices_30d: 0.4, device_users_30d: 0.8,
    email_disposable: 1.5, email_free: 0.1, email_users_30d: 0.8, new_account: 1, first_transaction: 0.3,
    amount_log: 0.5, amount_linear: 0, amount_100: 0.1, amount_250: 0.3, amount_1000: 0.4, amount_10000: 0.6, amount_z: 0.6, amount_ratio: 0.3,
    merchant_risk_30d: 1, merchant_frauds_7d: 0.6,
    geo_mismatch: 1.2, consistent_geo: -0.6, impossible_travel: 2,
    sim_swap: 1.5, sim_swap_confidence: 2
  }
}

/** An input's contribution must reach this (in absolute log-odds) for its signal to be reported. */
const SIGNAL_MIN = 0.25

export interface ScoreOutcome { score: number, signals: string[] }

/** Rounds to 4 decimals so the recorded score and the returned score are the same number. */
const round4 = (x: number) => Math.round(x * 10000) / 10000

/** The score (0..1) and the signals that contributed most, strongest first (contributions per code summed). */
export function scoreFeatures (features: Features, model: ScoringModel): ScoreOutcome {
  const x = inputValues(features)
  let logit = model.bias
  const bySignal = new Map<string, number>()
  for (let i = 0; i < INPUTS.length; i++) {
    const c = (model.weights[INPUTS[i]!.name] ?? 0) * x[i]!
    if (c === 0) continue
    logit += c
    bySignal.set(INPUTS[i]!.signal, (bySignal.get(INPUTS[i]!.signal) ?? 0) + c)
  }
  const signals = [...bySignal].filter(([, c]) => Math.abs(c) >= SIGNAL_MIN).sort((a, b) => Math.abs(b[1]) - Math.abs(a[1])).map(([s]) => s)
  return { score: round4(1 / (1 + Math.exp(-logit))), signals }
}
