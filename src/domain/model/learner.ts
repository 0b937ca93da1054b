import { UNVERSIONED } from './input-schemas.js'
import { clip, INPUT_SET, LINEAR_INPUTS, UnknownModelInputError, type InputSet, type ModelInput } from './inputs.js'
import type { ScoreBaseline } from './drift.js'
import { PRIOR, type LinearModel, type ScoringModel } from './model.js'

/**
 * Online logistic regression, per tenant and mode: one AdaGrad step per labelled decision, pulled towards
 * the global prior (L2 on the distance to PRIOR), so a tenant with few labels stays close to the prior and
 * one with many learns its own traffic. One label's step is bounded: it changes the log-odds of any decision
 * by at most MAX_LABEL_LOGIT_STEP (its score by at most a quarter of that). Pure: the trainer topology persists
 * and publishes it.
 */
export interface LearnerState {
  bias: number
  /**
   * The names of the inputs `weights` and `squares` (after the bias) are in the order of; absent in states
   * stored before they named them (input schema version 1's linear list). Read with alignLearner.
   */
  inputs?: string[]
  /** In `inputs` order: the linear model's inputs (LINEAR_INPUTS) once aligned. */
  weights: number[]
  /** AdaGrad accumulators of the scaled gradients (learn): bias first, then `inputs` order. */
  squares: number[]
  /** Labelled decisions learned from. */
  trained: number
  /** Versions published so far. */
  published: number
  /** `trained` when the last version was published. */
  publishedAt: number
  /** Latest time a decision was recorded (ms): decisions recorded before this minus the maturity delay are labelled. */
  watermarkMs: number
  trainedThroughMs: number
  /** Event time up to which the last trees were trained, or tried to be (0: never; absent in older states). */
  treesThroughMs?: number
  /** Tree versions trained so far (the next is trees-<treesPublished + 1>). */
  treesPublished?: number
  /**
   * The trees the tenant scores with (none until the first trees beat the linear model's served scores: while
   * none, the linear model is published), and the newer ones in shadow until they are compared
   * (topologies/feedback/tree-trainer.ts).
   */
  champion?: Champion
  challenger?: TreesVersion
}

/** A trees version and the recorded time it was trained through. */
export interface TreesVersion { version: string, throughMs: number }

/**
 * The champion: the scores it was promoted on (baseline) and its live scores since, binned (drift.ts), and the
 * champion before it, which it rolls back to when its scores drift or its quality falls below that one's.
 */
export interface Champion extends TreesVersion {
  /** The maturity horizon when it was promoted: decisions after it are the ones its quality is judged on. */
  promotedThroughMs?: number
  baseline?: ScoreBaseline
  live?: number[]
  /** Recorded time of the first live decision counted. */
  liveFromMs?: number
  /** Recorded time of the latest live decision counted. */
  liveToMs?: number
  previous?: TreesVersion & { baseline?: ScoreBaseline }
}

const LEARNING_RATE = 0.1
/** Pull towards the prior per step. */
const PRIOR_PULL = 1e-5
/** Starting accumulator: damps the first steps. */
const INITIAL_SQUARE = 1
/**
 * The most one label may change the log-odds of any decision: a score moves by at most a quarter of it (the
 * logistic function's steepest slope), 0.05. AdaGrad's first steps are about LEARNING_RATE per weight whatever
 * the input's scale, so unbounded, one fraud on a fresh tenant moved `amount_linear` (up to 50) by 0.1 and a
 * new user's 20,000 payment from 0.47 to 0.99.
 */
export const MAX_LABEL_LOGIT_STEP = 0.2
/** The score change MAX_LABEL_LOGIT_STEP allows at most. */
export const MAX_LABEL_SCORE_STEP = MAX_LABEL_LOGIT_STEP / 4

export function newLearner (model: ScoringModel, trained = 0, inputs: readonly ModelInput[] = LINEAR_INPUTS): LearnerState {
  const start = model.kind === 'trees' ? PRIOR : model
  return {
    bias: start.bias,
    inputs: inputs.map(i => i.name),
    weights: inputs.map(i => start.weights[i.name] ?? 0),
    squares: new Array(inputs.length + 1).fill(INITIAL_SQUARE),
    trained,
    published: 0,
    publishedAt: trained,
    watermarkMs: 0,
    trainedThroughMs: 0,
    treesThroughMs: 0,
    treesPublished: 0
  }
}

/**
 * A stored learner state over the linear inputs of `set`, by name: its weights and accumulators moved to their
 * inputs' places, an input it lacks (added since) at weight 0 and a fresh accumulator, so that it scores as it
 * did. A state naming an input the code no longer has is refused (UnknownModelInputError). States stored without
 * names were made with input schema version 1.
 */
export function alignLearner (s: LearnerState, set: InputSet = INPUT_SET, model = 'a learner state'): LearnerState {
  const names = s.inputs ?? set.schemas.get(UNVERSIONED)!.linear
  const to = set.linear
  if (names.length === to.length && names.every((name, i) => name === to[i]!.name)) return { ...s, inputs: [...names] }
  const at = new Map(names.map((name, i) => [name, i]))
  const known = new Set(to.map(i => i.name))
  const unknown = names.filter(name => !known.has(name))
  if (unknown.length > 0) throw new UnknownModelInputError(model, unknown)
  return {
    ...s,
    inputs: to.map(i => i.name),
    weights: to.map(i => at.has(i.name) ? s.weights[at.get(i.name)!]! : 0),
    squares: [s.squares[0]!, ...to.map(i => at.has(i.name) ? s.squares[at.get(i.name)! + 1]! : INITIAL_SQUARE)]
  }
}

/**
 * The most a change of weights (`dBias`, `dWeights` in `inputs` order) changes the log-odds of any decision:
 * |dBias| + sum |dWeight| x bound, every input's value lying within its bound (inputs.ts).
 */
export function largestLogitChange (dBias: number, dWeights: ArrayLike<number>, inputs: readonly ModelInput[] = LINEAR_INPUTS): number {
  let reach = Math.abs(dBias)
  for (let i = 0; i < inputs.length; i++) if (dWeights[i] !== 0) reach += Math.abs(dWeights[i]!) * inputs[i]!.bound!
  return reach
}

/**
 * One step on a decision's input values (inputValues(features), in `inputs` order as the state's weights), its
 * label (1 fraud, 0 legitimate) and the time the service recorded it. AdaGrad on the inputs scaled to -1..1 by their bounds (so that an input of a
 * wide range, the amount up to 50, moves no faster than a flag), scaled down as a whole when it would change
 * some decision's log-odds by more than MAX_LABEL_LOGIT_STEP. The accumulators take the whole gradient.
 */
export function learn (s: LearnerState, x: ArrayLike<number>, y: 0 | 1, recordedMs: number, inputs: readonly ModelInput[] = LINEAR_INPUTS): void {
  const n = inputs.length
  if (s.weights.length !== n) throw new Error(`a learner state of ${s.weights.length} weights learning over ${n} inputs: align it first (alignLearner)`)
  const v = Array.from({ length: n }, (_, i) => clip(x[i] ?? 0, inputs[i]!.bound)) // rows kept before the bounds
  let z = s.bias
  for (let i = 0; i < n; i++) z += s.weights[i]! * v[i]!
  const error = 1 / (1 + Math.exp(-z)) - y
  s.squares[0]! += error * error
  const dBias = -LEARNING_RATE * error / Math.sqrt(s.squares[0]!)
  // in scaled units: input v / bound, weight w x bound, so a weight's step is its largest effect on the log-odds
  const dScaled = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    const b = inputs[i]!.bound!
    const grad = error * v[i]! / b + PRIOR_PULL * b * (s.weights[i]! - (PRIOR.weights[inputs[i]!.name] ?? 0))
    if (grad === 0) continue
    s.squares[i + 1]! += grad * grad
    dScaled[i] = -LEARNING_RATE * grad / Math.sqrt(s.squares[i + 1]!)
  }
  const reach = dScaled.reduce((sum, d) => sum + Math.abs(d), Math.abs(dBias))
  const scale = reach > MAX_LABEL_LOGIT_STEP ? MAX_LABEL_LOGIT_STEP / reach : 1
  s.bias += scale * dBias
  for (let i = 0; i < n; i++) s.weights[i]! += scale * dScaled[i]! / inputs[i]!.bound!
  s.trained++
  s.trainedThroughMs = Math.max(s.trainedThroughMs, recordedMs)
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6

/** The model a learner state stands for, under the next version name: <prior>.online-<n>. */
export function snapshot (s: LearnerState, inputs: readonly ModelInput[] = LINEAR_INPUTS): LinearModel {
  return {
    version: `${PRIOR.version}.online-${s.published + 1}`,
    bias: round6(s.bias),
    weights: Object.fromEntries(inputs.map((input, i) => [input.name, round6(s.weights[i]!)]))
  }
}
