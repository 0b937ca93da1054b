import { describe, expect, it } from 'vitest'
import { LINEAR_INPUTS, inputValues } from '../../src/domain/model/inputs.js'
import { largestLogitChange, learn, MAX_LABEL_LOGIT_STEP, MAX_LABEL_SCORE_STEP, newLearner, snapshot, type LearnerState } from '../../src/domain/model/learner.js'
import { PRIOR, scoreFeatures } from '../../src/domain/model/model.js'

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z))
const logit = (s: LearnerState, x: ArrayLike<number>) => LINEAR_INPUTS.reduce((z, _, i) => z + s.weights[i]! * x[i]!, s.bias)
const copy = (s: LearnerState): LearnerState => JSON.parse(JSON.stringify(s)) as LearnerState

/** A deterministic pseudo-random sequence (mulberry32). */
function random (seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Input values anywhere within the bounds, most of them 0 as in real rows; some beyond (clipped by learn). */
const row = (r: () => number) => LINEAR_INPUTS.map(i => r() < 0.5 ? 0 : (r() * 2.4 - 1.2) * i.bound!)
/** The inputs at the corner where a change of weights raises (or lowers) the log-odds most. */
const corner = (before: LearnerState, after: LearnerState, sign: 1 | -1) => LINEAR_INPUTS.map((i, k) => sign * Math.sign(after.weights[k]! - before.weights[k]!) * i.bound!)

describe('online learner: one label moves any score by at most 0.05', () => {
  it('bounds one step on any row, label and state: no decision within the inputs\' bounds moves by more than 0.2 in log-odds, 0.05 in score', () => {
    const r = random(7)
    let capped = 0
    for (let trial = 0; trial < 400; trial++) {
      const s = newLearner(PRIOR)
      // a state somewhere along its learning: random earlier labels
      for (let k = Math.floor(r() * 50); k > 0; k--) learn(s, row(r), r() < 0.2 ? 1 : 0, k)
      const before = copy(s)
      learn(s, row(r), r() < 0.5 ? 1 : 0, 0)
      const dWeights = s.weights.map((w, i) => w - before.weights[i]!)
      const reach = largestLogitChange(s.bias - before.bias, dWeights)
      expect(reach).toBeLessThanOrEqual(MAX_LABEL_LOGIT_STEP + 1e-12)
      if (reach > MAX_LABEL_LOGIT_STEP - 1e-9) capped++
      for (const sign of [1, -1] as const) {
        const x = corner(before, s, sign)
        const moved = Math.abs(logit(s, x) - logit(before, x))
        expect(moved).toBeLessThanOrEqual(MAX_LABEL_LOGIT_STEP + 1e-9)
        expect(Math.abs(sigmoid(logit(s, x)) - sigmoid(logit(before, x)))).toBeLessThanOrEqual(MAX_LABEL_SCORE_STEP + 1e-12)
      }
      for (let k = 0; k < 20; k++) {
        const x = row(r).map((v, i) => Math.max(-LINEAR_INPUTS[i]!.bound!, Math.min(LINEAR_INPUTS[i]!.bound!, v)))
        expect(Math.abs(sigmoid(logit(s, x)) - sigmoid(logit(before, x)))).toBeLessThanOrEqual(MAX_LABEL_SCORE_STEP + 1e-12)
      }
    }
    expect(capped).toBeGreaterThan(100) // the bound is reached, not merely respected
    expect(MAX_LABEL_SCORE_STEP).toBe(0.05)
  })

  it('the issue\'s case: one fraud on a fresh tenant moves a new user\'s 20,000 payment by at most 0.05 (it moved it from 0.47 to 0.99)', () => {
    const payment = { user_present: 1, device_present: 1, email_present: 1, amount: 20_000 }
    const s = newLearner(PRIOR)
    const before = scoreFeatures(payment, snapshot(s)).score
    learn(s, inputValues(payment), 1, 0)
    const after = scoreFeatures(payment, snapshot(s)).score
    expect(after).toBeGreaterThan(before)
    expect(after - before).toBeLessThanOrEqual(MAX_LABEL_SCORE_STEP + 0.0001) // scores are rounded to 4 decimals
    expect(largestLogitChange(s.bias - PRIOR.bias, LINEAR_INPUTS.map((i, k) => s.weights[k]! - (PRIOR.weights[i.name] ?? 0)))).toBeCloseTo(MAX_LABEL_LOGIT_STEP, 9)
  })

  it('scores and learns within each input\'s bound: a count beyond it reads as the bound', () => {
    const x = inputValues({ user_count_1h: 1e9, amount: 1e12, amount_ratio: 100, amount_z: 10 })
    const at = (name: string) => x[LINEAR_INPUTS.findIndex(i => i.name === name)]
    expect(at('user_1h')).toBe(12)
    expect(at('amount_linear')).toBe(50)
    expect(at('amount_log')).toBeLessThan(12) // the largest amount accepted is within its bound
    expect(at('amount_ratio')).toBeCloseTo(Math.log(100), 12)
    for (const [i, input] of LINEAR_INPUTS.entries()) expect(Math.abs(x[i]!), input.name).toBeLessThanOrEqual(input.bound!)
  })

  it('many labels still teach: 100 frauds of a pattern lift it far above its legitimate twin', () => {
    const s = newLearner(PRIOR)
    const fraud = inputValues({ email_present: 1, email_disposable: 1, amount: 80 })
    const legit = inputValues({ email_present: 1, amount: 80 })
    for (let i = 0; i < 1000; i++) { learn(s, legit, 0, i); if (i % 10 === 0) learn(s, fraud, 1, i) }
    expect(sigmoid(logit(s, fraud)) - sigmoid(logit(s, legit))).toBeGreaterThan(0.3)
  })
})
