/**
 * Score drift, pure: the population stability index of a model's live scores against the scores it was
 * promoted on, over ten bins at the deciles of those. Conventionally below 0.1 is stable, 0.1-0.25 a moderate
 * shift and above 0.25 a significant one, where a promoted model rolls back (topologies/feedback/tree-trainer.ts).
 */
export const DRIFT_BINS = 10
export const PSI_ROLLBACK = 0.25
/** Live decisions needed before drift is judged. */
export const MIN_LIVE_DECISIONS = 1000
/**
 * Event time the live decisions must span before drift is judged: a whole day, so that the mix of hours
 * compares with a day's (scores move with the time of day; a few hours of traffic drift from any baseline).
 */
export const MIN_LIVE_SPAN_MS = 86_400_000

/** A model's reference distribution: inner bin edges (deciles of its scores) and the share of scores in each bin. */
export interface ScoreBaseline { edges: number[], shares: number[] }

/** The baseline of weighted scores: edges at their weighted deciles. */
export function baselineOf (scores: readonly number[], weights: readonly number[]): ScoreBaseline {
  const order = scores.map((_, i) => i).sort((a, b) => scores[a]! - scores[b]!)
  const total = weights.reduce((a, b) => a + b, 0)
  const edges: number[] = []
  let seen = 0
  let next = 1
  for (const i of order) {
    seen += weights[i]!
    while (next < DRIFT_BINS && seen >= total * next / DRIFT_BINS) { edges.push(scores[i]!); next++ }
  }
  const counts = new Array<number>(DRIFT_BINS).fill(0)
  scores.forEach((s, i) => { counts[binOf(edges, s)]! += weights[i]! })
  return { edges, shares: counts.map(c => c / Math.max(total, 1e-12)) }
}

/** The bin of a score: the number of edges below it. */
export function binOf (edges: readonly number[], score: number): number {
  let b = 0
  while (b < edges.length && score > edges[b]!) b++
  return b
}

/** Population stability index of live bin counts against the baseline's shares (empty bins smoothed). */
export function psi (baseline: readonly number[], liveCounts: readonly number[]): number {
  const total = liveCounts.reduce((a, b) => a + b, 0)
  let sum = 0
  for (let b = 0; b < baseline.length; b++) {
    const expected = Math.max(baseline[b]!, 1e-4)
    const actual = Math.max((liveCounts[b] ?? 0) / Math.max(total, 1), 1e-4)
    sum += (actual - expected) * Math.log(actual / expected)
  }
  return sum
}
