/**
 * Model inference cost: scoreFeatures (inputs, score, signals) per decision for the default trees (trained here
 * on synthetic rows with the trainer's settings) next to the linear prior in the same run, on recorded-like
 * features; and the time one training takes on as many rows as a tenant's window typically holds.
 *   npm run bench:model       (BENCH_ITERATIONS=200000 BENCH_TRAINING_ROWS=40000)
 */
import { DEFAULT_TRAINING, train } from '../src/domain/model/gbdt.js'
import { PRIOR, scoreFeatures, type TreeModel } from '../src/domain/model/model.js'
import { TREE_INPUTS, treeValues } from '../src/domain/model/inputs.js'
import type { Features } from '../src/domain/decision/types.js'

const iterations = Number(process.env.BENCH_ITERATIONS ?? 200_000)
const rows = Number(process.env.BENCH_TRAINING_ROWS ?? 40_000)
let seed = 7
const random = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff }

/** Features as a decision records them: counts, sums, amounts, flags. */
const features = (i: number): Features => {
  const count = Math.floor(random() * 40)
  return {
    amount: Math.round(random() * 500 * 100) / 100, user_count_1h: Math.floor(random() * 3), user_count_24h: Math.floor(random() * 5), user_count_7d: Math.floor(count / 4),
    user_count_30d: count, user_sum_24h: random() * 300, user_sum_7d: random() * 1500, user_sum_30d: random() * 5000, user_sumsq_30d: random() * 1e6,
    merchant_count_24h: Math.floor(random() * 50), merchant_count_7d: Math.floor(random() * 300), merchant_count_14d: Math.floor(random() * 600), merchant_count_30d: Math.floor(random() * 1200),
    'label.merchant_count_14d': Math.floor(random() * 3), 'label.merchant_count_30d': Math.floor(random() * 5), card_count_30d: count, hour_of_day: i % 24, weekend: i % 7 < 2 ? 1 : 0,
    amount_z: random() * 4 - 2, device_known: i % 2, user_present: 1, device_present: 1
  }
}
const samples = Array.from({ length: 1000 }, (_, i) => features(i))

const trainingRows = Array.from({ length: rows }, (_, i) => features(i))
const x = trainingRows.map(treeValues)
const labels = Uint8Array.from(trainingRows, f => (f.amount! > 400 || (f['label.merchant_count_14d']! > 1 && f.hour_of_day! < 6)) && random() < 0.8 ? 1 : 0)
const started = performance.now()
const forest = train({ columns: TREE_INPUTS.map((_, c) => Float64Array.from(x, r => r[c]!)), labels, weights: new Float64Array(rows).fill(1) }, DEFAULT_TRAINING)
const trainingMs = performance.now() - started
const trees: TreeModel = { kind: 'trees', version: 'bench', inputs: TREE_INPUTS.map(i => i.name), forest }

function perDecisionUs (model: Parameters<typeof scoreFeatures>[1]): number {
  let sink = 0
  for (let i = 0; i < 20_000; i++) sink += scoreFeatures(samples[i % samples.length]!, model).score // warm-up
  const t0 = performance.now()
  for (let i = 0; i < iterations; i++) sink += scoreFeatures(samples[i % samples.length]!, model).score
  const us = (performance.now() - t0) * 1000 / iterations
  if (sink < 0) console.log(sink)
  return us
}
const linear = perDecisionUs(PRIOR)
const treesUs = perDecisionUs(trees)
console.log(`\nnode ${process.version}, ${iterations} decisions each`)
console.log(`linear prior (${Object.keys(PRIOR.weights).length} inputs)            ${linear.toFixed(2).padStart(7)} us a decision`)
console.log(`trees (${forest.trees.length} of depth ${DEFAULT_TRAINING.depth}, ${TREE_INPUTS.length} inputs)  ${treesUs.toFixed(2).padStart(7)} us a decision (${(treesUs / linear).toFixed(1)}x the linear)`)
console.log(`one training on ${rows} rows: ${(trainingMs / 1000).toFixed(1)} s`)
