import type { Features } from '../decision/types.js'
import { contributions, type Forest } from './gbdt.js'
import { clip, INPUT_SET, UnknownModelInputError, valuesOf, type InputSet, type ModelInput } from './inputs.js'

/**
 * A linear scoring model: logistic regression over LINEAR_INPUTS. A tenant's model starts as the global PRIOR,
 * learned online from labels by the feedback topology until it has enough labels for trees.
 */
export interface LinearModel {
  kind?: 'linear'
  version: string
  bias: number
  /** By input name; an input a model does not name weighs 0; a name the code does not have is refused (compileModel). */
  weights: Record<string, number>
}

/** Gradient-boosted trees over the TREE_INPUTS it names (its splits index `inputs`), trained by the feedback topology. */
export interface TreeModel {
  kind: 'trees'
  version: string
  inputs: string[]
  forest: Forest
}

/** What a tenant scores with; decisions record its version. */
export type ScoringModel = LinearModel | TreeModel

/**
 * The global prior: what a new tenant scores with before its own labels teach it (docs/adaptive-scoring.md#the-prior
 * gives the reasons of each weight). Hand-set, in log-odds: the bias puts an event with no evidence either way
 * at about the fraud rate of a consumer business (1 %), and each weight is the evidence its input is for fraud:
 * bursts beyond an ordinary session, a device new to a customer the service knows, a device logging into more
 * accounts than a household, throwaway or shared identities, bad IPs, geo contradictions, SIM swaps, amounts
 * large in euros or unusual for the customer's own events of that kind, merchants with reported fraud. Known
 * devices, a consistent country and a customer's history lower it. What ordinary life is full of weighs
 * nothing or little: a login followed by a payment, a customer's second phone, a shared tablet, an address shared
 * by a family or a carrier, a free mailbox, a login's missing amount.
 */
export const PRIOR: LinearModel = {
  version: 'prior-2026-11-26',
  bias: -4.6,
  weights: {
    // velocity: bursts beyond a session, not the session itself
    user_1h: 0, user_24h: 0.1, user_7d: 0, user_30d: -0.2, device_1h: 0, email_1h: 0, merchant_24h: 0,
    user_burst_1h: 1.2, device_burst_1h: 0.6,
    // network: an address's traffic and sharing, weak and saturating; its reputation when the tenant has a list
    ip_1h: 0.1, ip_24h: 0, ip_users_24h: 0, ip_shared_24h: 0.5, ip_reputation_v3: 3,
    // devices: new to a customer with history; shared beyond a household
    new_device: 0, device_new_to_user: 1, known_device: -0.5, user_devices_30d: 0.2,
    device_users_30d: 0.3, device_users_beyond_household: 1.2,
    // identity
    email_disposable: 1.5, email_free: 0, email_users_30d: 0.8, new_account: 1, first_transaction: 0.2,
    // amount: its size in euros, and against the customer's own events of the same kind
    amount_log: 0, amount_linear: 0, amount_size: 0.5, amount_100: 0.1, amount_250: 0.3, amount_1000: 0.4, amount_10000: 0.6,
    amount_z: 0.6, amount_ratio: 0.3,
    // merchants with reported fraud (labels)
    merchant_risk_30d: 1, merchant_frauds_7d: 0.6,
    // geo and SIM swap
    geo_mismatch: 1.2, consistent_geo: -0.6, impossible_travel: 1.5,
    sim_swap: 1.5, sim_swap_confidence: 2
  }
}

/** An input's contribution must raise the log-odds by this for its signal to be reported. */
const SIGNAL_MIN = 0.25

export interface ScoreOutcome { score: number, signals: string[] }

/**
 * A model ready to score: its names resolved to the inputs of the code once, when it is loaded, so that a
 * decision reads arrays in input order. Linear: a weight per linear input (0 for one the model does not name);
 * trees: the input of each of its features.
 */
export type CompiledModel =
  | { kind: 'linear', bias: number, inputs: readonly ModelInput[], weights: Float64Array }
  | { kind: 'trees', inputs: readonly ModelInput[], forest: Forest }

/** The model over the inputs of `set`, by name; a model naming an input `set` lacks is refused (UnknownModelInputError). */
export function compileModel (model: ScoringModel, set: InputSet = INPUT_SET): CompiledModel {
  if (model.kind === 'trees') {
    const byName = new Map(set.trees.map(i => [i.name, i]))
    const unknown = model.inputs.filter(name => !byName.has(name))
    if (unknown.length > 0) throw new UnknownModelInputError(`model ${model.version}`, unknown)
    return { kind: 'trees', inputs: model.inputs.map(name => byName.get(name)!), forest: model.forest }
  }
  const known = new Set(set.linear.map(i => i.name))
  const unknown = Object.keys(model.weights).filter(name => !known.has(name))
  if (unknown.length > 0) throw new UnknownModelInputError(`model ${model.version}`, unknown)
  return { kind: 'linear', bias: model.bias, inputs: set.linear, weights: Float64Array.from(set.linear, i => model.weights[i.name] ?? 0) }
}

/** Each model compiled over the code's inputs, once (the registry compiles a model as it loads it). */
const compiled = new WeakMap<ScoringModel, CompiledModel>()

/** The model compiled over the code's inputs (cached); refuses a model naming inputs the code lacks. */
export function compiledModel (model: ScoringModel): CompiledModel {
  let c = compiled.get(model)
  if (c === undefined) compiled.set(model, c = compileModel(model))
  return c
}

compiledModel(PRIOR)

/** Rounds to 4 decimals so the recorded score and the returned score are the same number. */
export const round4 = (x: number) => Math.round(x * 10000) / 10000

/** The score a decision reports for log-odds: the probability, to 4 decimals. */
export const scoreOf = (logit: number) => round4(1 / (1 + Math.exp(-logit)))

/** The score (0..1) and the signals that raised it most, strongest first (contributions per code summed). */
export function scoreFeatures (features: Features, model: ScoringModel): ScoreOutcome {
  return scoreCompiled(features, compiledModel(model))
}

/** scoreFeatures of a compiled model. */
export function scoreCompiled (features: Features, model: CompiledModel): ScoreOutcome {
  return model.kind === 'trees' ? scoreTrees(features, model.inputs, model.forest) : scoreLinear(features, model.bias, model.inputs, model.weights)
}

function scoreLinear (features: Features, bias: number, inputs: readonly ModelInput[], weights: Float64Array): ScoreOutcome {
  let logit = bias
  const bySignal = new Map<string, number>()
  for (let i = 0; i < inputs.length; i++) {
    const w = weights[i]!
    if (w === 0) continue
    const input = inputs[i]!
    const value = input.value(features)
    const c = w * (Number.isFinite(value) ? clip(value, input.bound) : input.default)
    if (c === 0) continue
    logit += c
    bySignal.set(input.signal, (bySignal.get(input.signal) ?? 0) + c)
  }
  return { score: scoreOf(logit), signals: riskSignals(bySignal) }
}

/** The signal codes whose contributions raise the score by at least SIGNAL_MIN, strongest first: what lowered it is no reason for it. */
function riskSignals (bySignal: Map<string, number>): string[] {
  return [...bySignal].filter(([, c]) => c >= SIGNAL_MIN).sort((a, b) => b[1] - a[1]).map(([s]) => s)
}

function scoreTrees (features: Features, inputs: readonly ModelInput[], forest: Forest): ScoreOutcome {
  const x = valuesOf(inputs, features)
  const parts = new Float64Array(inputs.length)
  const bias = contributions(forest, x, parts)
  const bySignal = new Map<string, number>()
  for (let i = 0; i < inputs.length; i++) {
    if (parts[i] === 0) continue
    bySignal.set(inputs[i]!.signal, (bySignal.get(inputs[i]!.signal) ?? 0) + parts[i]!)
  }
  return { score: scoreOf(bias + parts.reduce((a, b) => a + b, 0)), signals: riskSignals(bySignal) }
}
