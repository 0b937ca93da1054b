import type { CaseOutcome } from '../cases/types.js'
import type { Action } from '../decision/types.js'
import { activation, type CompiledRule } from './language.js'
import type { ListMatcher } from './lists.js'
import type { TransactionRecord } from '../records/decisions.js'

export interface BacktestReport {
  evaluated: number
  matched: number
  errors: number
  /** Matches split by the later case outcome of the transaction; `unlabeled` when it has none. */
  matched_by_outcome: Record<CaseOutcome | 'unlabeled', number>
  /** Matches split by the action the transaction actually got. */
  matched_by_action: Record<Action, number>
  /** Up to 20 matching trace ids, oldest first. */
  sample_trace_ids: string[]
}

/** Evaluates a draft rule over recorded transactions, as they were seen (recorded request and features). Pure. */
export function backtest (rule: CompiledRule, records: Iterable<TransactionRecord>, lists: Record<string, ListMatcher>, outcomeOf: (traceId: string) => CaseOutcome | undefined): BacktestReport {
  const report: BacktestReport = {
    evaluated: 0,
    matched: 0,
    errors: 0,
    matched_by_outcome: { fraud: 0, safe: 0, chargeback: 0, unlabeled: 0 },
    matched_by_action: { approve: 0, flag: 0, reject: 0 },
    sample_trace_ids: []
  }
  for (const r of records) {
    report.evaluated++
    const result = rule.evaluate(activation({ request: r.request, features: r.features, signals: {}, lists }))
    if (result.error !== undefined) { report.errors++; continue }
    if (!result.matched) continue
    report.matched++
    report.matched_by_outcome[outcomeOf(r.trace_id) ?? 'unlabeled']++
    report.matched_by_action[r.decision.action]++
    if (report.sample_trace_ids.length < 20) report.sample_trace_ids.push(r.trace_id)
  }
  return report
}
