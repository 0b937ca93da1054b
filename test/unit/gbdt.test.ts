import { describe, expect, it } from 'vitest'
import { contributions, predictLogit, train, type TrainingSet } from '../../src/domain/model/gbdt.js'
import { aucRoc } from '../../src/domain/detection-metrics.js'

/** A deterministic pseudo-random sequence (mulberry32). */
function random (seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Fraud when x0 is past a threshold, or when x1 is high and x2 low; x3 is noise. */
function dataset (rows: number, seed: number): { set: TrainingSet, x: number[][] } {
  const next = random(seed)
  const x: number[][] = []
  const labels = new Uint8Array(rows)
  for (let i = 0; i < rows; i++) {
    const row = [next(), next(), next(), next()]
    x.push(row)
    labels[i] = row[0]! > 0.93 || (row[1]! > 0.8 && row[2]! < 0.2) ? 1 : 0
  }
  const columns = [0, 1, 2, 3].map(f => Float64Array.from(x, r => r[f]!))
  return { set: { columns, labels, weights: new Float64Array(rows).fill(1) }, x }
}

describe('gradient-boosted trees', () => {
  const { set } = dataset(4000, 1)
  const options = { trees: 40, depth: 3, learningRate: 0.3, lambda: 1, minChildWeight: 1, bins: 32, subsample: 0.8, colsample: 0.8, seed: 7 }
  const forest = train(set, options)
  const test = dataset(2000, 2)

  it('learn threshold and interaction rules that hold out of sample', () => {
    const scored = test.x.map((x, i) => ({ score: predictLogit(forest, x), label: test.set.labels[i] as 0 | 1 }))
    expect(aucRoc(scored)).toBeGreaterThan(0.99)
    // calibrated: the mean predicted probability is near the share of frauds
    const meanP = test.x.reduce((s, x) => s + 1 / (1 + Math.exp(-predictLogit(forest, x))), 0) / test.x.length
    const share = test.set.labels.reduce((s, y) => s + y, 0) / test.x.length
    expect(Math.abs(meanP - share)).toBeLessThan(0.02)
  })

  it('split a row\'s log-odds into a bias and per-feature contributions that add up to it, the noise feature near 0', () => {
    for (const x of test.x.slice(0, 50)) {
      const out = new Float64Array(4)
      const bias = contributions(forest, x, out)
      expect(bias + out.reduce((a, b) => a + b, 0)).toBeCloseTo(predictLogit(forest, x), 9)
    }
    const fraud = [0.97, 0.5, 0.5, 0.5]
    const out = new Float64Array(4)
    contributions(forest, fraud, out)
    expect(out[0]).toBeGreaterThan(1)
    expect(Math.abs(out[3]!)).toBeLessThan(0.5)
  })

  it('weigh rows: a down-sampled class with weights keeps the probabilities', () => {
    const kept: number[] = []
    for (let i = 0; i < set.labels.length; i++) if (set.labels[i] === 1 || i % 4 === 0) kept.push(i)
    const sampled: TrainingSet = {
      columns: set.columns.map(c => Float64Array.from(kept, i => c[i]!)),
      labels: Uint8Array.from(kept, i => set.labels[i]!),
      weights: Float64Array.from(kept, i => set.labels[i] === 1 ? 1 : 4)
    }
    const weighted = train(sampled, options)
    expect(weighted.base).toBeCloseTo(forest.base, 1)
  })

  it('draw rows and features per tree from their seed: the same seed trains the same forest, another one another', () => {
    expect(train(set, options)).toEqual(forest)
    expect(train(set, { ...options, seed: 8 })).not.toEqual(forest)
    const all = train(set, { ...options, subsample: 1, colsample: 1 })
    expect(train(set, { ...options, subsample: 1, colsample: 1, seed: 8 })).toEqual(all)
  })

  it('bound each leaf\'s step with maxDeltaStep: rare fraud, whose Newton steps are huge, moves a leaf by at most learningRate x maxDeltaStep', () => {
    // 1 fraud in 200, as a tenant's training index holds them: legitimate rows sampled 1 in 10 and weighted 10
    const next = random(3)
    const rows = 20000
    const x = Array.from({ length: rows }, () => [next(), next()])
    const labels = Uint8Array.from(x, r => r[0]! > 0.995 ? 1 : 0)
    const rare: TrainingSet = { columns: [0, 1].map(f => Float64Array.from(x, r => r[f]!)), labels, weights: Float64Array.from(labels, y => y === 1 ? 1 : 10) }
    const rareOptions = { ...options, learningRate: 0.1 }
    const largest = (f: ReturnType<typeof train>) => Math.max(...f.trees.flatMap(t => t.value.map(Math.abs)))
    expect(largest(train(rare, rareOptions))).toBeGreaterThan(1)
    const bounded = train(rare, { ...rareOptions, maxDeltaStep: 3 })
    expect(largest(bounded)).toBeLessThanOrEqual(0.3 + 1e-12)
    // still learns the rule
    expect(predictLogit(bounded, [0.999, 0.5])).toBeGreaterThan(predictLogit(bounded, [0.5, 0.5]) + 5)
  })
})
