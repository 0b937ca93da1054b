import type { TransactionRecord } from '../records/decisions.js'
import type { ModelRecord } from '../records/models.js'

/** How many rules the hit trend names (the most hits first). */
export const TOP_RULES = 5
/** How many equal buckets the window's rule hits are counted in. */
export const TREND_BUCKETS = 12

export interface RuleTrend {
  /** The length of one bucket, in seconds (the window divided in TREND_BUCKETS, whole minutes). */
  bucket_seconds: number
  /** The rules with the most hits in the window (at most TOP_RULES), each with its hits per bucket, oldest first. */
  rules: Array<{ id: string, hits: number, buckets: number[] }>
}

export interface Overview {
  decisions: number
  /** One entry per minute of the window, oldest first: decisions by action. */
  per_minute: Array<{ minute: number, approve: number, flag: number, reject: number }>
  /** Decisions per score decile: [0, 0.1), [0.1, 0.2) ... [0.9, 1]. */
  score_histogram: number[]
  /** Server-side decision latency (decision.latency_ms), nearest-rank percentiles; null without decisions. */
  latency_ms: { p50: number | null, p99: number | null }
  rule_hits: RuleTrend
}

const percentile = (sorted: number[], p: number) => sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!

/** What the dashboard's overview draws, from the decisions of [fromMs, toMs). Pure. */
export function overviewOf (records: Iterable<TransactionRecord>, fromMs: number, toMs: number): Overview {
  const firstMinute = Math.floor(fromMs / 60_000)
  const minutes = Math.max(1, Math.ceil(toMs / 60_000) - firstMinute)
  const perMinute = Array.from({ length: minutes }, (_, i) => ({ minute: (firstMinute + i) * 60, approve: 0, flag: 0, reject: 0 }))
  const histogram = new Array<number>(10).fill(0)
  const latencies: number[] = []
  // Buckets from the window's start, of whole minutes (the last one takes what a rounding leaves).
  const bucketMinutes = Math.max(1, Math.ceil(Math.round((toMs - fromMs) / 60_000) / TREND_BUCKETS))
  const buckets = Math.max(1, Math.min(TREND_BUCKETS, Math.ceil((toMs - fromMs) / 60_000 / bucketMinutes)))
  const hits = new Map<string, number[]>()
  let decisions = 0
  for (const r of records) {
    const index = Math.floor(r.created_ms / 60_000) - firstMinute
    const slot = perMinute[index]
    if (slot === undefined) continue
    decisions++
    slot[r.decision.action]++
    histogram[Math.min(9, Math.max(0, Math.floor(r.decision.score * 10)))]!++
    latencies.push(r.decision.latency_ms)
    for (const rule of r.decision.rules) {
      let counts = hits.get(rule)
      if (counts === undefined) hits.set(rule, counts = new Array<number>(buckets).fill(0))
      counts[Math.min(buckets - 1, Math.floor((r.created_ms - fromMs) / 60_000 / bucketMinutes))]!++
    }
  }
  latencies.sort((a, b) => a - b)
  const rules = [...hits].map(([id, counts]) => ({ id, hits: counts.reduce((n, c) => n + c, 0), buckets: counts }))
    .sort((a, b) => b.hits - a.hits || (a.id < b.id ? -1 : 1)).slice(0, TOP_RULES)
  return {
    decisions,
    per_minute: perMinute,
    score_histogram: histogram,
    latency_ms: { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) },
    rule_hits: { bucket_seconds: bucketMinutes * 60, rules }
  }
}

/**
 * Where measuring the model's quality on matured labels stands (the feedback topology, docs/detection.md):
 * - `measured`: a challenger was compared with the model that served (the evaluation is shown);
 * - `no_matured_labels`: no decision has matured yet (a decision matures LABEL_MATURITY_DAYS after it was recorded);
 * - `challenger_in_shadow`: trees were trained and score in shadow; they are compared once the decisions matured
 *   after their training horizon hold MODEL_MIN_FRAUDS frauds;
 * - `too_few_frauds`: labels have matured, but no trees were trained yet: the matured labels of the training window
 *   do not hold MODEL_MIN_FRAUDS frauds (or the next training has not come round).
 */
export interface QualityStatus {
  state: 'measured' | 'no_matured_labels' | 'challenger_in_shadow' | 'too_few_frauds'
  /** Matured decisions the serving model learned from (labelled, or legitimate by maturing unlabelled). */
  matured_labels: number
  /** Event time of the latest decision learned from (unix seconds), null before any. */
  matured_through: number | null
  /** The challenger's training horizon (unix seconds) while one scores in shadow, else null. */
  challenger_trained_through: number | null
}

/** The quality status from the serving model's record and the last challenger's. Pure. */
export function qualityStatus (serving: ModelRecord | undefined, challenger: ModelRecord | undefined): QualityStatus {
  const matured = serving?.trained ?? 0
  const base = {
    matured_labels: matured,
    matured_through: serving === undefined || matured === 0 ? null : Math.floor(serving.trained_through_ms / 1000),
    challenger_trained_through: null
  }
  if (challenger?.evaluation !== undefined) return { ...base, state: 'measured' }
  if (challenger?.role === 'challenger') return { ...base, state: 'challenger_in_shadow', challenger_trained_through: Math.floor(challenger.trained_through_ms / 1000) }
  return { ...base, state: matured === 0 ? 'no_matured_labels' : 'too_few_frauds' }
}
