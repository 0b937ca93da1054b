import type { TransactionRecord } from '../records/decisions.js'

export interface Overview {
  decisions: number
  /** One entry per minute of the window, oldest first: decisions by action. */
  per_minute: Array<{ minute: number, approve: number, flag: number, reject: number }>
  /** Decisions per score decile: [0, 0.1), [0.1, 0.2) ... [0.9, 1]. */
  score_histogram: number[]
  /** Server-side decision latency (decision.latency_ms), nearest-rank percentiles; null without decisions. */
  latency_ms: { p50: number | null, p99: number | null }
}

const percentile = (sorted: number[], p: number) => sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!

/** What the dashboard's overview draws, from the decisions of [fromMs, toMs). Pure. */
export function overviewOf (records: Iterable<TransactionRecord>, fromMs: number, toMs: number): Overview {
  const firstMinute = Math.floor(fromMs / 60_000)
  const minutes = Math.max(1, Math.ceil(toMs / 60_000) - firstMinute)
  const perMinute = Array.from({ length: minutes }, (_, i) => ({ minute: (firstMinute + i) * 60, approve: 0, flag: 0, reject: 0 }))
  const histogram = new Array<number>(10).fill(0)
  const latencies: number[] = []
  let decisions = 0
  for (const r of records) {
    const slot = perMinute[Math.floor(r.created_ms / 60_000) - firstMinute]
    if (slot === undefined) continue
    decisions++
    slot[r.decision.action]++
    histogram[Math.min(9, Math.max(0, Math.floor(r.decision.score * 10)))]!++
    latencies.push(r.decision.latency_ms)
  }
  latencies.sort((a, b) => a - b)
  return { decisions, per_minute: perMinute, score_histogram: histogram, latency_ms: { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) } }
}
