import type { Features } from '../decision/types.js'
import { contributions, type Forest } from './gbdt.js'
import { INPUTS, inputValues, valuesOf, type ModelInput } from './inputs.js'
import { TREE_INPUTS } from './tree-inputs.js'

/**
 * A linear scoring model: logistic regression over INPUTS. A tenant's model starts as the global PRIOR,
 * learned online from labels by the feedback topology until it has enough labels for trees.
 */
export interface LinearModel {
  kind?: 'linear'
  version: string
  bias: number
  /** By input name; an input a model does not name weighs 0. */
  weights: Record<string, number>
}

/** Gradient-boosted trees over the TREE_INPUTS it names (in its inputs' order), trained by the feedback topology. */
export interface TreeModel {
  kind: 'trees'
  version: string
  inputs: string[]
  forest: Forest
}

/** What a tenant scores with; decisions record its version. */
export type ScoringModel = LinearModel | TreeModel

/**
 * The global prior: hand-set weights expressing common fraud knowledge (velocity, new devices, throwaway
 * identities, bad IPs, geo contradictions, SIM swaps and large or unusual amounts raise risk; known devices
 * and a consistent country lower it). A plain purchase by a known user on a known device scores about 0.01.
 */
export const PRIOR: LinearModel = {
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

/** An input's contribution must raise the log-odds by this for its signal to be reported. */
const SIGNAL_MIN = 0.25

export interface ScoreOutcome { score: number, signals: string[] }

/** Rounds to 4 decimals so the recorded score and the returned score are the same number. */
export const round4 = (x: number) => Math.round(x * 10000) / 10000

/** The score a decision reports for log-odds: the probability, to 4 decimals. */
export const scoreOf = (logit: number) => round4(1 / (1 + Math.exp(-logit)))

/** The score (0..1) and the signals that raised it most, strongest first (contributions per code summed). */
export function scoreFeatures (features: Features, model: ScoringModel): ScoreOutcome {
  return model.kind === 'trees' ? scoreTrees(features, model) : scoreLinear(features, model)
}

function scoreLinear (features: Features, model: LinearModel): ScoreOutcome {
  const x = inputValues(features)
  let logit = model.bias
  const bySignal = new Map<string, number>()
  for (let i = 0; i < INPUTS.length; i++) {
    const c = (model.weights[INPUTS[i]!.name] ?? 0) * x[i]!
    if (c === 0) continue
    logit += c
    bySignal.set(INPUTS[i]!.signal, (bySignal.get(INPUTS[i]!.signal) ?? 0) + c)
  }
  return { score: scoreOf(logit), signals: riskSignals(bySignal) }
}

/** The signal codes whose contributions raise the score by at least SIGNAL_MIN, strongest first: what lowered it is no reason for it. */
function riskSignals (bySignal: Map<string, number>): string[] {
  return [...bySignal].filter(([, c]) => c >= SIGNAL_MIN).sort((a, b) => b[1] - a[1]).map(([s]) => s)
}

/** The TREE_INPUTS a tree model names, in its order (an input no longer known reads 0). */
const treeInputs = new WeakMap<TreeModel, Array<ModelInput | undefined>>()
const byName = new Map(TREE_INPUTS.map(i => [i.name, i]))

function scoreTrees (features: Features, model: TreeModel): ScoreOutcome {
  let inputs = treeInputs.get(model)
  if (inputs === undefined) treeInputs.set(model, inputs = model.inputs.map(name => byName.get(name)))
  const x = valuesOf(inputs, features)
  const parts = new Float64Array(inputs.length)
  const bias = contributions(model.forest, x, parts)
  const bySignal = new Map<string, number>()
  for (let i = 0; i < inputs.length; i++) {
    if (parts[i] === 0 || inputs[i] === undefined) continue
    bySignal.set(inputs[i]!.signal, (bySignal.get(inputs[i]!.signal) ?? 0) + parts[i]!)
  }
  return { score: scoreOf(bias + parts.reduce((a, b) => a + b, 0)), signals: riskSignals(bySignal) }
}
