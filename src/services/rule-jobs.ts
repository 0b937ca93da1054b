import type { ValueList } from '../domain/decision/types.js'
import { idLowerBound } from '../domain/ids.js'
import type { Scope } from '../domain/scope.js'
import { withOutcomes, type BacktestReport } from '../domain/rules/backtest.js'
import { labelsOf } from '../stores/labels.js'
import { scan } from '../stores/rocks.js'
import type { StateDb } from '../stores/state-db.js'
import { transactionKey } from '../stores/transactions.js'
import { ApiError } from './errors.js'
import { RuleWorker, RuleWorkerBusy, RuleWorkerTimeout, type Post } from './rule-worker.js'
import type { BacktestOutcome, Checked, ExpressionProblem } from './rule-worker-thread.js'

export interface RuleJobLimits { validateMs: number, backtestMs: number, backtestRecords: number }

/** Time bounds of the rule worker's jobs (docs/rules.md, "Off the event loop"; docs/limits.md). */
export const RULE_JOB_LIMITS: Readonly<RuleJobLimits> = {
  /** A validation compiles one expression of at most 4,000 characters: milliseconds; this is a safety net. */
  validateMs: 5_000,
  /** A backtest reads and evaluates at most `backtestRecords` stored decisions. */
  backtestMs: 30_000,
  backtestRecords: 100_000
}

/** Records sent to the worker per message, and bytes at most (copied into one transferred buffer). */
const CHUNK_RECORDS = 500
const CHUNK_BYTES = 1 << 20

export interface BacktestRequest {
  scope: Scope
  expression: string
  /** The active ruleset's lists, with their items (in_list reads them). */
  lists: Record<string, ValueList>
  fromMs: number
  toMs: number
}

/** The error a refused expression gets where it is saved or backtested: 400, naming line and column. */
export function expressionError (problem: ExpressionProblem): ApiError {
  const message = `Invalid expression at line ${problem.line}, column ${problem.column}: ${problem.message}`
  return new ApiError(problem.kind === 'cost' ? 'expression_too_costly' : 'parameter_invalid', message, 'expression')
}

/** A failure of the worker as the API answers it: a timeout or a full queue is the caller's to act on, never a 500. */
function apiErrorOf (err: unknown, what: string, advice: string): unknown {
  if (err instanceof RuleWorkerTimeout) return new ApiError('evaluation_timeout', `The ${what} did not finish within ${err.timeoutMs / 1000} s and was stopped; ${advice}`)
  if (err instanceof RuleWorkerBusy) return new ApiError('rules_worker_busy', `Too many rule validations and backtests are waiting on this instance (${err.message}); retry shortly.`, undefined, undefined, 1)
  return err
}

/**
 * Validation and backtests of rule expressions, off the request event loop: each in the rule worker
 * (rule-worker.ts), within RULE_JOB_LIMITS. A backtest's records are read here, raw, and streamed to the worker,
 * which decodes and evaluates them; only the matches' labels are looked up here afterwards.
 */
export class RuleJobs {
  constructor (private readonly worker = new RuleWorker(), private readonly limits: Readonly<RuleJobLimits> = RULE_JOB_LIMITS) {}

  /** `lists`: the tenant's list aliases, which in_list() may name. */
  async validate (expression: string, lists: string[]): Promise<Checked> {
    try {
      return await this.worker.run<Checked>({ kind: 'validate', expression, lists }, this.limits.validateMs)
    } catch (err) {
      throw apiErrorOf(err, 'validation', 'shorten the expression.')
    }
  }

  /** The report, or the problem of an expression that does not compile; `truncated` past backtestRecords. */
  async backtest (state: StateDb, req: BacktestRequest): Promise<{ invalid: ExpressionProblem } | { report: BacktestReport, truncated: boolean }> {
    let truncated = false
    const feed = async (post: Post) => {
      const gte = transactionKey(req.scope, idLowerBound('trc', req.fromMs))
      const lt = transactionKey(req.scope, idLowerBound('trc', req.toMs))
      let chunk: Buffer[] = []
      let bytes = 0
      const flush = (): boolean => {
        const data = new Uint8Array(bytes)
        const ends: number[] = []
        let at = 0
        for (const value of chunk) { data.set(value, at); at += value.length; ends.push(at) }
        chunk = []
        bytes = 0
        return post({ kind: 'records', data: data.buffer, ends }, [data.buffer])
      }
      let read = 0
      for await (const [, value] of scan(state.db, gte, lt, { limit: this.limits.backtestRecords + 1 })) {
        if (++read > this.limits.backtestRecords) { truncated = true; break }
        chunk.push(value)
        bytes += value.length
        if ((chunk.length >= CHUNK_RECORDS || bytes >= CHUNK_BYTES) && !flush()) return
      }
      if (chunk.length > 0 && !flush()) return
      post({ kind: 'end' })
    }
    let outcome: BacktestOutcome
    try {
      outcome = await this.worker.run<BacktestOutcome>({ kind: 'backtest', expression: req.expression, lists: req.lists }, this.limits.backtestMs, feed)
    } catch (err) {
      throw apiErrorOf(err, 'backtest', "narrow 'from' and 'to' or simplify the expression.")
    }
    if ('invalid' in outcome) return outcome
    const labels = await labelsOf(state, req.scope, outcome.found.matches)
    const outcomes = new Map(labels.flatMap(l => l === undefined ? [] : [[l.trace_id, l.outcome] as const]))
    return { report: withOutcomes(outcome.found, traceId => outcomes.get(traceId)), truncated }
  }

  close (): Promise<void> {
    return this.worker.close()
  }
}
