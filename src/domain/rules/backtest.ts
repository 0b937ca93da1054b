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

/** What evaluating the rule over the records found, before the matches' later outcomes are looked up. */
export interface BacktestMatches extends Omit<BacktestReport, 'matched_by_outcome' | 'sample_trace_ids'> {
  /** Trace ids of the matching records, oldest first. */
  matches: string[]
}

/**
 * Evaluates a draft rule over recorded transactions one at a time, as they were seen (recorded request and
 * features). Pure; a backtest worker feeds it the records as they are read (services/rule-worker-thread.ts).
 */
export class BacktestRun {
  private readonly found: BacktestMatches = { evaluated: 0, matched: 0, errors: 0, matched_by_action: { approve: 0, flag: 0, reject: 0 }, matches: [] }

  constructor (private readonly rule: CompiledRule, private readonly lists: Record<string, ListMatcher>) {}

  add (r: TransactionRecord): void {
    const found = this.found
    found.evaluated++
    const result = this.rule.evaluate(activation({ request: r.request, features: r.features, signals: {}, lists: this.lists }))
    if (result.error !== undefined) { found.errors++; return }
    if (!result.matched) return
    found.matched++
    found.matched_by_action[r.decision.action]++
    found.matches.push(r.trace_id)
  }

  get result (): BacktestMatches {
    return this.found
  }
}

/** The report: the matches split by their later case outcome. */
export function withOutcomes (found: BacktestMatches, outcomeOf: (traceId: string) => CaseOutcome | undefined): BacktestReport {
  const { matches, ...counts } = found
  const matched_by_outcome = { fraud: 0, safe: 0, chargeback: 0, unlabeled: 0 }
  for (const traceId of matches) matched_by_outcome[outcomeOf(traceId) ?? 'unlabeled']++
  return { ...counts, matched_by_outcome, sample_trace_ids: matches.slice(0, 20) }
}

/** Evaluates a draft rule over recorded transactions, as they were seen (recorded request and features). Pure. */
export function backtest (rule: CompiledRule, records: Iterable<TransactionRecord>, lists: Record<string, ListMatcher>, outcomeOf: (traceId: string) => CaseOutcome | undefined): BacktestReport {
  const run = new BacktestRun(rule, lists)
  for (const r of records) run.add(r)
  return withOutcomes(run.result, outcomeOf)
}
