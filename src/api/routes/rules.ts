import { isDeepStrictEqual } from 'node:util'
import type { FastifyPluginAsync } from 'fastify'
import type { Rule } from '../../domain/decision/types.js'
import { newId } from '../../domain/ids.js'
import { upsertRule } from '../../domain/rules/ruleset-edits.js'
import { ruleHistory } from '../../domain/rules/rule-history.js'
import { ApiError, notFound } from '../../services/errors.js'
import { listQuerySchema, paginate, type ListQuery } from '../pagination.js'
import { changeRuleset, type RulesetChangeDeps } from './rules/change.js'
import { compileChecked } from './rules/expression.js'
import { DEFAULT_QUOTAS } from '../../domain/records/tenants.js'

const ruleBodySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    id: { type: 'string', pattern: '^[a-z0-9_]{1,64}$' },
    name: { type: 'string', minLength: 1, maxLength: 200 },
    expression: { type: 'string', minLength: 1, maxLength: 4000 },
    action: { type: 'string', enum: ['approve', 'flag', 'reject'] },
    mode: { type: 'string', enum: ['enforce', 'shadow'] },
    priority: { type: 'integer', minimum: 0, maximum: 1_000_000 },
    description: { type: 'string', maxLength: 2000 },
    status: { type: 'string', enum: ['active', 'disabled'] }
  }
} as const

type RuleBody = Partial<Rule>

/** Rule ids that would hide under another resource's path (GET /v1/rules/rollout, GET /v1/rules/hits). */
const RESERVED_IDS = new Set(['rollout', 'hits'])

export function ruleResource (rule: Rule, rulesetVersion: string) {
  return { object: 'rule', ...rule, ruleset_version: rulesetVersion }
}

/** Rules: create or update (POST /v1/rules), list, one with its history. Rollout and backtest: ./rules/. */
export const ruleRoutes: FastifyPluginAsync<RulesetChangeDeps> = async (app, deps) => {
  const { control } = deps
  app.post<{ Body: RuleBody }>('/v1/rules', { config: { scope: 'rules:write' }, schema: { body: ruleBodySchema } }, async request => {
    const body = request.body
    const id = body.id ?? newId('rule').toLowerCase()
    if (RESERVED_IDS.has(id)) throw new ApiError('parameter_invalid', `'${id}' is reserved (/v1/rules/${id} is another resource); choose another id.`, 'id')
    const active = (await control.activeRuleset(request.scope)).ruleset
    const { rules } = active
    const existing = rules.find(r => r.id === id)
    if (existing === undefined) {
      const most = deps.tenants.quotaOf(request.caller.tenant, 'rules', DEFAULT_QUOTAS.rules)
      if (rules.length >= most) throw new ApiError('quota_exceeded', `This account's ruleset holds at most ${most} rules: delete or reuse one first.`, 'id')
      for (const field of ['name', 'expression', 'action'] as const) {
        if (body[field] === undefined) throw new ApiError('parameter_missing', `Missing required parameter: '${field}'.`, field)
      }
    }
    if (body.expression !== undefined) compileChecked(body.expression, { lists: new Set(Object.keys(active.lists)) })
    // Saving a rule as it is makes no version (an empty change in the history): the rule is answered as it stands.
    if (existing !== undefined && isDeepStrictEqual(upsertRule(active, id, body).rules.find(r => r.id === id), existing)) return ruleResource(existing, active.version)
    const version = await changeRuleset(deps, request.caller, request.id, { type: 'rule.upserted', rule_id: id }, ruleset => upsertRule(ruleset, id, body))
    return ruleResource(version.ruleset.rules.find(r => r.id === id)!, version.ruleset.version)
  })

  app.get<{ Querystring: ListQuery & { mode?: string, status?: string } }>('/v1/rules', {
    config: { scope: 'rules:read' },
    schema: {
      querystring: {
        ...listQuerySchema,
        properties: { ...listQuerySchema.properties, mode: { type: 'string', enum: ['enforce', 'shadow'] }, status: { type: 'string', enum: ['active', 'disabled'] } }
      }
    }
  }, async request => {
    const { ruleset } = await control.activeRuleset(request.scope)
    const q = request.query
    const rules = ruleset.rules
      .filter(r => (q.mode === undefined || r.mode === q.mode) && (q.status === undefined || r.status === q.status))
      .sort((a, b) => a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
    return paginate(rules, r => r.id, q, r => ruleResource(r, ruleset.version), '/v1/rules')
  })

  app.get<{ Params: { id: string } }>('/v1/rules/:id', { config: { scope: 'rules:read' } }, async request => {
    const scope = request.scope
    const { ruleset } = await control.activeRuleset(scope)
    const rule = ruleset.rules.find(r => r.id === request.params.id)
    if (rule === undefined) throw notFound('rule', request.params.id)
    const history = ruleHistory(await control.history(scope), rule.id)
      .map(({ version: v, rule: then }) => ({ ruleset_version: v.ruleset.version, created: Math.floor(v.created_ms / 1000), actor: v.actor, change: v.change.type, rule: then }))
    return { ...ruleResource(rule, ruleset.version), history }
  })
}
