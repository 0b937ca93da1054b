import { parentPort } from 'node:worker_threads'
import type { ValueList } from '../domain/decision/types.js'
import { BacktestRun, type BacktestMatches } from '../domain/rules/backtest.js'
import type { LintContext } from '../domain/rules/lint.js'
import { compileRule, RuleCostError, RuleSyntaxError, type CompiledRule } from '../domain/rules/language.js'
import { compileList } from '../domain/rules/lists.js'
import { parseTransaction } from '../stores/transactions.js'

/** A rule expression that does not compile: why and where (as POST /v1/rules/validate shows it). */
export interface ExpressionProblem {
  message: string
  line: number
  column: number
  /** `cost`: over the cost limit (docs/rules.md, "Cost"); `syntax`: anything else. */
  kind: 'syntax' | 'cost'
}

export type Checked = { valid: true, cost: number } | { valid: false, error: ExpressionProblem }

/** Jobs of the rule worker (services/rule-worker.ts). */
export type RuleJob =
  /** `lists`: the tenant's list aliases, to check the expression against (domain/rules/lint.ts). */
  | { kind: 'validate', expression: string, lists: string[] }
  /** Followed by `records` messages and one `end`. */
  | { kind: 'backtest', expression: string, lists: Record<string, ValueList> }

/** Everything a job sends its worker: the job, then (a backtest) stored records, raw, and the end of them. */
export type RuleJobMessage =
  | RuleJob
  /** Stored transactions, back to back in `data`: record i ends at ends[i]. */
  | { kind: 'records', data: ArrayBuffer, ends: number[] }
  | { kind: 'end' }

export type BacktestOutcome = { invalid: ExpressionProblem } | { found: BacktestMatches }

export type RuleJobReply = { id: number, ok: true, result: unknown } | { id: number, ok: false, error: string }

function check (expression: string, lint?: LintContext): { program: CompiledRule } | { problem: ExpressionProblem } {
  try {
    return { program: compileRule(expression, undefined, lint) }
  } catch (err) {
    if (!(err instanceof RuleSyntaxError)) throw err
    return { problem: { message: err.message, line: err.position.line, column: err.position.column, kind: err instanceof RuleCostError ? 'cost' : 'syntax' } }
  }
}

/**
 * The rule worker: compiles expressions and runs backtests off the request event loop, one message at a time.
 * A job that runs too long is ended from outside (the worker is terminated), so nothing here keeps time.
 */
const port = parentPort!
const backtests = new Map<number, BacktestRun>()

const reply = (message: RuleJobReply) => port.postMessage(message)

port.on('message', (m: RuleJobMessage & { id: number }) => {
  try {
    switch (m.kind) {
      case 'validate': {
        const checked = check(m.expression, { lists: new Set(m.lists) })
        reply({ id: m.id, ok: true, result: 'program' in checked ? { valid: true, cost: checked.program.cost } : { valid: false, error: checked.problem } })
        return
      }
      case 'backtest': {
        const checked = check(m.expression)
        if ('problem' in checked) { reply({ id: m.id, ok: true, result: { invalid: checked.problem } satisfies BacktestOutcome }); return }
        const lists = Object.fromEntries(Object.entries(m.lists).map(([alias, list]) => [alias, compileList(list)]))
        backtests.set(m.id, new BacktestRun(checked.program, lists))
        return
      }
      case 'records': {
        const run = backtests.get(m.id)
        if (run === undefined) return // its job is over (the expression was refused)
        const data = Buffer.from(m.data)
        let start = 0
        for (const end of m.ends) { run.add(parseTransaction(data.subarray(start, end))); start = end }
        return
      }
      case 'end': {
        const run = backtests.get(m.id)
        if (run === undefined) return
        backtests.delete(m.id)
        reply({ id: m.id, ok: true, result: { found: run.result } satisfies BacktestOutcome })
      }
    }
  } catch (err) {
    backtests.delete(m.id)
    reply({ id: m.id, ok: false, error: (err as Error).message })
  }
})
port.postMessage({ ready: true })
