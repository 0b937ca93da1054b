/**
 * Gradient-boosted decision trees for binary classification (logistic loss), pure: training on histograms of
 * quantile-binned features (as LightGBM and XGBoost's `hist` do), prediction, and per-feature contributions
 * along the decision path (Saabas: each split credits its feature with the change in the node's value).
 * No maintained JavaScript library trains trees and exposes their structure (docs/detection.md).
 */
import { uniform } from '../random.js'

/** One tree in flat arrays (JSON as it is): node 0 is the root; a leaf has feature -1. */
export interface Tree {
  feature: number[]
  /** Goes left when x[feature] <= threshold. */
  threshold: number[]
  left: number[]
  right: number[]
  /** Every node's value (log-odds, learning rate applied): a leaf's is its output, an inner node's what it would output as a leaf. */
  value: number[]
}

export interface Forest {
  /** Log-odds before any tree. */
  base: number
  trees: Tree[]
}

export interface TrainOptions {
  trees: number
  depth: number
  learningRate: number
  /** L2 regularization of leaf values. */
  lambda: number
  /** Smallest sum of hessians (weighted p(1-p)) a child may have. */
  minChildWeight: number
  /**
   * The largest step a leaf takes in log-odds before the learning rate (LightGBM's and XGBoost's max_delta_step;
   * 0 or absent: none). With rare fraud a leaf's Newton step -G/(H+lambda) is huge (the hessian p(1-p) of a
   * fraud is about the fraud rate), so one tree can move a leaf by 10 in log-odds and the forest depends on
   * which rows and inputs the first trees drew (docs/detection.md, "Unbounded leaf steps").
   */
  maxDeltaStep?: number
  /** Most quantile bins per feature (at most 65,536). */
  bins: number
  /** Share of the rows each tree is grown on, drawn anew per tree (stochastic gradient boosting); 1: all. */
  subsample: number
  /** Share of the features each tree may split on, drawn anew per tree; 1: all. */
  colsample: number
  /** Seed of those draws: the same set and options train the same forest. */
  seed: number
}

export const DEFAULT_TRAINING: TrainOptions = { trees: 150, depth: 5, learningRate: 0.1, lambda: 1, minChildWeight: 1, maxDeltaStep: 3, bins: 256, subsample: 0.8, colsample: 0.8, seed: 1 }

/** The indexes below `n` each kept with probability `share` (all of them at 1; at least one). */
function draw (n: number, share: number, next: () => number): Int32Array {
  if (share >= 1) return Int32Array.from({ length: n }, (_, i) => i)
  const kept: number[] = []
  for (let i = 0; i < n; i++) if (next() < share) kept.push(i)
  if (kept.length === 0) kept.push(Math.floor(next() * n))
  return Int32Array.from(kept)
}

/** Labelled rows: values by column (`columns[f][row]`), labels 0/1, and a weight per row. */
export interface TrainingSet { columns: Float64Array[], labels: Uint8Array, weights: Float64Array }

/** The log-odds of a row. */
export function predictLogit (forest: Forest, x: ArrayLike<number>): number {
  let z = forest.base
  for (const t of forest.trees) {
    let n = 0
    while (t.feature[n]! >= 0) n = x[t.feature[n]!]! <= t.threshold[n]! ? t.left[n]! : t.right[n]!
    z += t.value[n]!
  }
  return z
}

/**
 * The log-odds of a row split into a bias (base and every root's value) and each feature's contribution
 * (added into `out`, indexed like x); bias + the sum of `out` is predictLogit.
 */
export function contributions (forest: Forest, x: ArrayLike<number>, out: Float64Array): number {
  let bias = forest.base
  for (const t of forest.trees) {
    let n = 0
    bias += t.value[0]!
    while (t.feature[n]! >= 0) {
      const next = x[t.feature[n]!]! <= t.threshold[n]! ? t.left[n]! : t.right[n]!
      out[t.feature[n]!]! += t.value[next]! - t.value[n]!
      n = next
    }
  }
  return bias
}

export function train (set: TrainingSet, options: TrainOptions = DEFAULT_TRAINING): Forest {
  const { columns, labels, weights } = set
  const rows = labels.length
  const binned = columns.map(c => binColumn(c, options.bins))
  let positive = 0
  let total = 0
  for (let i = 0; i < rows; i++) { positive += weights[i]! * labels[i]!; total += weights[i]! }
  const prior = Math.min(Math.max(positive / Math.max(total, 1e-12), 1e-6), 1 - 1e-6)
  const base = Math.log(prior / (1 - prior))
  const logit = new Float64Array(rows).fill(base)
  const grad = new Float64Array(rows)
  const hess = new Float64Array(rows)
  const trees: Tree[] = []
  const next = uniform(options.seed)
  for (let k = 0; k < options.trees; k++) {
    for (let i = 0; i < rows; i++) {
      const p = 1 / (1 + Math.exp(-logit[i]!))
      grad[i] = weights[i]! * (p - labels[i]!)
      hess[i] = weights[i]! * Math.max(p * (1 - p), 1e-16)
    }
    const sample = draw(rows, options.subsample, next)
    const features = new Set(draw(binned.length, options.colsample, next))
    const tree = growTree(binned, grad, hess, options, sample, features)
    trees.push(tree.tree)
    for (let i = 0; i < rows; i++) logit[i]! += tree.tree.value[tree.leafOf[i]!]!
  }
  return { base, trees }
}

/** A column's bin per row and the upper edge of each bin (the split thresholds). */
interface BinnedColumn { bins: Uint16Array, edges: number[] }

/** Quantile bins: edges at distinct values, so that each bin holds about rows / bins rows. */
function binColumn (values: Float64Array, maxBins: number): BinnedColumn {
  const sorted = Float64Array.from(values).sort()
  const edges: number[] = []
  const count = Math.min(maxBins, 65536)
  const step = sorted.length / count
  for (let b = 1; b < count; b++) {
    const edge = sorted[Math.min(sorted.length - 1, Math.floor(b * step))]!
    if (edges.length === 0 || edge > edges[edges.length - 1]!) edges.push(edge)
  }
  if (edges.length === 0 || edges[edges.length - 1]! < sorted[sorted.length - 1]!) edges.push(sorted[sorted.length - 1] ?? 0)
  const bins = new Uint16Array(values.length)
  for (let i = 0; i < values.length; i++) bins[i] = firstEdgeAtLeast(edges, values[i]!)
  return { bins, edges }
}

function firstEdgeAtLeast (edges: number[], v: number): number {
  let lo = 0
  let hi = edges.length - 1
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (edges[mid]! >= v) hi = mid
    else lo = mid + 1
  }
  return lo
}

interface Split { feature: number, bin: number, gain: number }

/** One tree grown level by level to `depth` on the `sample` rows and `features`, and the leaf each row (all of them) ends in. */
function growTree (binned: BinnedColumn[], grad: Float64Array, hess: Float64Array, o: TrainOptions, sample: Int32Array, features: ReadonlySet<number>): { tree: Tree, leafOf: Int32Array } {
  const tree: Tree = { feature: [], threshold: [], left: [], right: [], value: [] }
  const leafOf = new Int32Array(grad.length)
  const addNode = (g: number, h: number) => {
    tree.feature.push(-1); tree.threshold.push(0); tree.left.push(-1); tree.right.push(-1)
    const step = -g / (h + o.lambda)
    const cap = o.maxDeltaStep ?? 0
    tree.value.push(o.learningRate * (cap > 0 ? Math.max(-cap, Math.min(cap, step)) : step))
    return tree.value.length - 1
  }
  let g = 0
  let h = 0
  for (const i of sample) { g += grad[i]!; h += hess[i]! }
  let level = [{ node: addNode(g, h), rows: sample, g, h }]
  for (let d = 0; d < o.depth && level.length > 0; d++) {
    const next: typeof level = []
    for (const n of level) {
      const split = bestSplit(binned, grad, hess, n.rows, n.g, n.h, o, features)
      if (split === undefined) continue
      const column = binned[split.feature]!
      let leftCount = 0
      for (const r of n.rows) if (column.bins[r]! <= split.bin) leftCount++
      const leftRows = new Int32Array(leftCount)
      const rightRows = new Int32Array(n.rows.length - leftCount)
      let gl = 0; let hl = 0; let li = 0; let ri = 0
      for (const r of n.rows) {
        if (column.bins[r]! <= split.bin) { leftRows[li++] = r; gl += grad[r]!; hl += hess[r]! } else rightRows[ri++] = r
      }
      const left = addNode(gl, hl)
      const right = addNode(n.g - gl, n.h - hl)
      tree.feature[n.node] = split.feature
      tree.threshold[n.node] = column.edges[split.bin]!
      tree.left[n.node] = left
      tree.right[n.node] = right
      next.push({ node: left, rows: leftRows, g: gl, h: hl }, { node: right, rows: rightRows, g: n.g - gl, h: n.h - hl })
    }
    level = next.filter(n => n.rows.length > 1)
  }
  // Every row's leaf: walk the binned rows down the finished tree.
  for (let i = 0; i < grad.length; i++) {
    let n = 0
    while (tree.feature[n]! >= 0) n = binned[tree.feature[n]!]!.edges[binned[tree.feature[n]!]!.bins[i]!]! <= tree.threshold[n]! ? tree.left[n]! : tree.right[n]!
    leafOf[i] = n
  }
  return { tree, leafOf }
}

function bestSplit (binned: BinnedColumn[], grad: Float64Array, hess: Float64Array, rows: Int32Array, g: number, h: number, o: TrainOptions, features: ReadonlySet<number>): Split | undefined {
  const parentScore = g * g / (h + o.lambda)
  let best: Split | undefined
  const most = binned.reduce((m, c) => Math.max(m, c.edges.length), 0)
  const hg = new Float64Array(most)
  const hh = new Float64Array(most)
  for (let f = 0; f < binned.length; f++) {
    const { bins, edges } = binned[f]!
    if (edges.length < 2 || !features.has(f)) continue
    hg.fill(0, 0, edges.length)
    hh.fill(0, 0, edges.length)
    for (let k = 0; k < rows.length; k++) {
      const r = rows[k]!
      const b = bins[r]!
      hg[b]! += grad[r]!
      hh[b]! += hess[r]!
    }
    let gl = 0
    let hl = 0
    for (let b = 0; b < edges.length - 1; b++) {
      gl += hg[b]!
      hl += hh[b]!
      const hr = h - hl
      if (hl < o.minChildWeight || hr < o.minChildWeight) continue
      const gr = g - gl
      const gain = gl * gl / (hl + o.lambda) + gr * gr / (hr + o.lambda) - parentScore
      if (gain > 1e-9 && (best === undefined || gain > best.gain)) best = { feature: f, bin: b, gain }
    }
  }
  return best
}
