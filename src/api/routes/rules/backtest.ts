import type { FastifyPluginAsync } from 'fastify'
import type { StateDb } from '../../../stores/state-db.js'
import { notFound, ApiError } from '../../../services/errors.js'
import { expressionError, RuleJobs } from '../../../services/rule-jobs.js'
import type { RulesetReader } from './change.js'

export interface BacktestDeps {
  control: Pick<RulesetReader, 'activeRuleset'>
  /** Stored transactions and their labels. */
  state: StateDb
}

/**
 * POST /v1/rules/:id/backtest: a rule (or a draft expression) over stored transactions and their labels. The
 * expression is checked and evaluated in the rule worker, off the event loop, within a time bound
 * (services/rule-jobs.ts); a refused expression is a 400 naming line and column, as when it is saved.
 */
export const backtestRoutes: FastifyPluginAsync<BacktestDeps> = async (app, { control, state }) => {
  const jobs = new RuleJobs()
  app.addHook('onClose', async () => { await jobs.close() })
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
    const outcome = await jobs.backtest(state, { scope, expression, lists: active.ruleset.lists, fromMs: from * 1000, toMs: to * 1000 })
    if ('invalid' in outcome) throw expressionError(outcome.invalid)
    return { object: 'backtest', rule_id: request.params.id, expression, from, to, ruleset_version: active.ruleset.version, truncated: outcome.truncated, ...outcome.report }
  })
}
