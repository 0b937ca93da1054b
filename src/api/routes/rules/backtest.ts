import type { FastifyPluginAsync } from 'fastify'
import { backtest } from '../../../domain/rules/backtest.js'
import { labelsOf } from '../../../stores/labels.js'
import type { StateDb } from '../../../stores/state-db.js'
import { transactionsBetween } from '../../../stores/transactions.js'
import { notFound, ApiError } from '../../../services/errors.js'
import type { RulesetReader } from './change.js'
import { compileChecked } from './expression.js'

/** At most this many transactions are evaluated by one backtest (the report says when it stopped there). */
const BACKTEST_MAX = 100_000

export interface BacktestDeps {
  control: Pick<RulesetReader, 'activeRuleset'>
  /** Stored transactions and their labels. */
  state: StateDb
}

/** POST /v1/rules/:id/backtest: a rule (or a draft expression) over stored transactions and their labels. */
export const backtestRoutes: FastifyPluginAsync<BacktestDeps> = async (app, { control, state }) => {
  app.post<{ Params: { id: string }, Body: { expression?: string, from: number, to: number } }>('/v1/rules/:id/backtest', {
    config: { scope: 'rules:read' },
    schema: {
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['from', 'to'],
        properties: {
          expression: { type: 'string', minLength: 1, maxLength: 4000 },
          from: { type: 'integer', minimum: 0 },
          to: { type: 'integer', minimum: 0 }
        }
      }
    }
  }, async request => {
    const scope = request.scope
    const { expression: draft, from, to } = request.body
    if (to <= from) throw new ApiError('parameter_invalid', "'to' must be after 'from'.", 'to')
    const active = await control.activeRuleset(scope)
    const expression = draft ?? active.ruleset.rules.find(r => r.id === request.params.id)?.expression
    if (expression === undefined) throw notFound('rule', request.params.id)
    const program = compileChecked(expression)
    const records = []
    for await (const r of transactionsBetween(state, scope, from * 1000, to * 1000, BACKTEST_MAX + 1)) records.push(r)
    const truncated = records.length > BACKTEST_MAX
    const evaluated = records.slice(0, BACKTEST_MAX)
    const labels = await labelsOf(state, scope, evaluated.map(r => r.trace_id))
    const outcomes = new Map(labels.flatMap(l => l === undefined ? [] : [[l.trace_id, l.outcome] as const]))
    const report = backtest(program, evaluated, active.compiled.lists, traceId => outcomes.get(traceId))
    return { object: 'backtest', rule_id: request.params.id, expression, from, to, ruleset_version: active.ruleset.version, truncated, ...report }
  })
}
