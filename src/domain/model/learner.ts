import { clip, INPUTS } from './inputs.js'
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
  /** In INPUTS order. */
  weights: number[]
  /** AdaGrad accumulators of the scaled gradients (learn): bias first, then INPUTS order. */
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
  /** Tree versions trained so far: while 0 the linear model is published. */
  treesPublished?: number
  /** The trees the tenant scores with, and the newer ones in shadow until they are compared (topologies/feedback/tree-trainer.ts). */
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
/** Every linear input has a bound (inputs.ts). */
const BOUNDS = INPUTS.map(i => i.bound!)

export function newLearner (model: ScoringModel, trained = 0): LearnerState {
  const start = model.kind === 'trees' ? PRIOR : model
  return {
    bias: start.bias,
    weights: INPUTS.map(i => start.weights[i.name] ?? 0),
    squares: new Array(INPUTS.length + 1).fill(INITIAL_SQUARE),
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
 * The most a change of weights (`dBias`, `dWeights` in INPUTS order) changes the log-odds of any decision:
 * |dBias| + sum |dWeight| x bound, every input's value lying within its bound (inputs.ts).
 */
export function largestLogitChange (dBias: number, dWeights: ArrayLike<number>): number {
  let reach = Math.abs(dBias)
  for (let i = 0; i < INPUTS.length; i++) if (dWeights[i] !== 0) reach += Math.abs(dWeights[i]!) * BOUNDS[i]!
  return reach
}

/**
 * One step on a decision's input values (inputValues(features)), its label (1 fraud, 0 legitimate) and the
 * time the service recorded it. AdaGrad on the inputs scaled to -1..1 by their bounds (so that an input of a
 * wide range, the amount up to 50, moves no faster than a flag), scaled down as a whole when it would change
 * some decision's log-odds by more than MAX_LABEL_LOGIT_STEP. The accumulators take the whole gradient.
 */
export function learn (s: LearnerState, x: ArrayLike<number>, y: 0 | 1, recordedMs: number): void {
  const n = INPUTS.length
  const v = Array.from({ length: n }, (_, i) => clip(x[i] ?? 0, BOUNDS[i])) // rows kept before the bounds
  let z = s.bias
  for (let i = 0; i < n; i++) z += s.weights[i]! * v[i]!
  const error = 1 / (1 + Math.exp(-z)) - y
  s.squares[0]! += error * error
  const dBias = -LEARNING_RATE * error / Math.sqrt(s.squares[0]!)
  // in scaled units: input v / bound, weight w x bound, so a weight's step is its largest effect on the log-odds
  const dScaled = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    const b = BOUNDS[i]!
    const grad = error * v[i]! / b + PRIOR_PULL * b * (s.weights[i]! - (PRIOR.weights[INPUTS[i]!.name] ?? 0))
    if (grad === 0) continue
    s.squares[i + 1]! += grad * grad
    dScaled[i] = -LEARNING_RATE * grad / Math.sqrt(s.squares[i + 1]!)
  }
  const reach = dScaled.reduce((sum, d) => sum + Math.abs(d), Math.abs(dBias))
  const scale = reach > MAX_LABEL_LOGIT_STEP ? MAX_LABEL_LOGIT_STEP / reach : 1
  s.bias += scale * dBias
  for (let i = 0; i < n; i++) s.weights[i]! += scale * dScaled[i]! / BOUNDS[i]!
  s.trained++
  s.trainedThroughMs = Math.max(s.trainedThroughMs, recordedMs)
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6

/** The model a learner state stands for, under the next version name: <prior>.online-<n>. */
export function snapshot (s: LearnerState): LinearModel {
  return {
    version: `${PRIOR.version}.online-${s.published + 1}`,
    bias: round6(s.bias),
    weights: Object.fromEntries(INPUTS.map((input, i) => [input.name, round6(s.weights[i]!)]))
  }
}
