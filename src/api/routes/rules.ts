import type { FastifyInstance } from 'fastify'
import type { Core } from '../../services/core.js'
import type { RiskSettings, Rule, Ruleset, ValueList } from '../../domain/decision/types.js'
import { policyOf } from '../../domain/decision/default-policy.js'
import type { RulesetVersion } from '../../domain/rules/ruleset-versions.js'
import { newId } from '../../domain/ids.js'
import { ChangeRejected } from '../../stream/control-plane.js'
import { backtest } from '../../domain/rules/backtest.js'
import { compileRule, RuleSyntaxError, type CompiledRule } from '../../domain/rules/language.js'
import { labelsOf } from '../../stores/labels.js'
import { transactionsBetween } from '../../stores/transactions.js'
import { invalidListItem } from '../../domain/rules/lists.js'
import { principalScope, type Principal } from '../../services/auth.js'
import { ApiError, notFound } from '../../services/errors.js'
import { listQuerySchema, paginate, type ListQuery } from '../pagination.js'

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

export function ruleResource (rule: Rule, rulesetVersion: string) {
  return { object: 'rule', ...rule, ruleset_version: rulesetVersion }
}

export function listResource (list: ValueList, withItems: boolean) {
  return { object: 'value_list', alias: list.alias, item_type: list.item_type, items_count: list.items.length, ...(withItems ? { items: list.items } : {}) }
}

/** At most this many transactions are evaluated by one backtest (the report says when it stopped there). */
const BACKTEST_MAX = 100_000

function compileChecked (expression: string): CompiledRule {
  try {
    return compileRule(expression)
  } catch (err) {
    if (err instanceof RuleSyntaxError) {
      throw new ApiError('parameter_invalid', `Invalid expression at line ${err.position.line}, column ${err.position.column}: ${err.message}`, 'expression')
    }
    throw err
  }
}

/** Ruleset changes may lose a race with another instance several times in a row: 409, retry. */
async function proposing<T> (run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (err) {
    if (err instanceof ChangeRejected) throw new ApiError('conflict', err.message)
    throw err
  }
}

export function ruleRoutes (app: FastifyInstance, core: Core): void {
  const { state, controlPlane: control, clock, audit } = core
  /** One ruleset change as a new version, audited with the request that made it. */
  const change = async (p: Principal, requestId: string, describe: RulesetVersion['change'], apply: (ruleset: Ruleset) => Ruleset) => {
    const version = await proposing(() => control.propose(principalScope(p), p.key.id, describe, apply, clock()))
    const { type, ...ids } = describe
    await audit.record({
      tenant_id: p.tenant, mode: p.mode, actor: p.key.id, action: type, object_type: type.split('.')[0]!, object_id: String(Object.values(ids)[0] ?? type.split('.')[0]),
      trace_id: requestId, data: { ruleset_version: version.ruleset.version }
    })
    return version
  }
  app.post<{ Body: RuleBody }>('/v1/rules', { config: { scope: 'rules:write' }, schema: { body: ruleBodySchema } }, async request => {
    const p = request.caller
    const scope = request.scope
    const body = request.body
    const id = body.id ?? newId('rule').toLowerCase()
    const existing = (await control.activeRuleset(scope)).ruleset.rules.find(r => r.id === id)
    if (existing === undefined) {
      for (const field of ['name', 'expression', 'action'] as const) {
        if (body[field] === undefined) throw new ApiError('parameter_missing', `Missing required parameter: '${field}'.`, field)
      }
    }
    if (body.expression !== undefined) compileChecked(body.expression)
    let saved: Rule | undefined
    const version = await change(p, request.id, { type: 'rule.upserted', rule_id: id }, ruleset => {
      const current = ruleset.rules.find(r => r.id === id)
      const base: Rule = current ?? { id, name: '', expression: '', action: 'flag', mode: 'enforce', priority: 100, description: '', status: 'active' }
      saved = { ...base, ...body, id }
      ruleset.rules = current === undefined ? [...ruleset.rules, saved] : ruleset.rules.map(r => r.id === id ? saved! : r)
      return ruleset
    })
    return ruleResource(saved!, version.ruleset.version)
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
    const history = (await control.history(scope))
      .filter(v => v.change.type === 'rule.upserted' && v.change.rule_id === rule.id)
      .map(v => ({ ruleset_version: v.ruleset.version, created: Math.floor(v.created_ms / 1000), actor: v.actor, rule: v.ruleset.rules.find(r => r.id === rule.id) }))
    return { ...ruleResource(rule, ruleset.version), history }
  })

  app.post<{ Body: { pack: string, rule_ids: string[], percentage: number } }>('/v1/rules/rollout', {
    config: { scope: 'rules:write' },
    schema: {
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['pack', 'rule_ids', 'percentage'],
        properties: {
          pack: { type: 'string', pattern: '^[a-z0-9_]{1,64}$' },
          rule_ids: { type: 'array', minItems: 1, maxItems: 100, uniqueItems: true, items: { type: 'string', minLength: 1 } },
          percentage: { type: 'number', minimum: 0, maximum: 100 }
        }
      }
    }
  }, async request => {
    const p = request.caller
    const scope = request.scope
    const { pack, rule_ids: ruleIds, percentage } = request.body
    const known = new Set((await control.activeRuleset(scope)).ruleset.rules.map(r => r.id))
    const unknown = ruleIds.find(id => !known.has(id))
    if (unknown !== undefined) throw new ApiError('parameter_invalid', `No such rule: '${unknown}'.`, 'rule_ids')
    const version = await change(p, request.id, { type: 'rollout.updated', pack }, ruleset => {
      const rollouts = { ...(ruleset.rollouts ?? {}) }
      // A rule belongs to one pack: moving it here takes it out of any other.
      for (const [name, r] of Object.entries(rollouts)) rollouts[name] = { ...r, rule_ids: r.rule_ids.filter(id => !ruleIds.includes(id)) }
      rollouts[pack] = { pack, rule_ids: ruleIds, percentage }
      ruleset.rollouts = rollouts
      ruleset.rules = ruleset.rules.map(r => ruleIds.includes(r.id) ? { ...r, mode: 'shadow' } : r)
      return ruleset
    })
    return { object: 'rollout', pack, rule_ids: ruleIds, percentage, mode: 'shadow', ruleset_version: version.ruleset.version }
  })

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

  app.get<{ Querystring: ListQuery }>('/v1/lists', { config: { scope: 'rules:read' }, schema: { querystring: listQuerySchema } }, async request => {
    const { ruleset } = await control.activeRuleset(request.scope)
    const lists = Object.values(ruleset.lists).sort((a, b) => a.alias < b.alias ? -1 : 1)
    return paginate(lists, l => l.alias, request.query, l => listResource(l, false), '/v1/lists')
  })

  app.get<{ Params: { alias: string } }>('/v1/lists/:alias', { config: { scope: 'rules:read' } }, async request => {
    const list = (await control.activeRuleset(request.scope)).ruleset.lists[request.params.alias]
    if (list === undefined) throw notFound('list', request.params.alias)
    return listResource(list, true)
  })

  app.post<{ Body: { alias: string, item_type: ValueList['item_type'] } }>('/v1/lists', {
    config: { scope: 'rules:write' },
    schema: {
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['alias', 'item_type'],
        properties: {
          alias: { type: 'string', pattern: '^[a-z0-9_]{1,64}$' },
          item_type: { type: 'string', enum: ['user_id', 'email', 'device_id', 'ip', 'country', 'card', 'string'] }
        }
      }
    }
  }, async request => {
    const p = request.caller
    const scope = request.scope
    const { alias, item_type: itemType } = request.body
    if ((await control.activeRuleset(scope)).ruleset.lists[alias] !== undefined) {
      throw new ApiError('resource_exists', `A list with alias '${alias}' already exists.`, 'alias')
    }
    const created: ValueList = { alias, item_type: itemType, items: [] }
    await change(p, request.id, { type: 'list.created', alias }, ruleset => {
      ruleset.lists = { ...ruleset.lists, [alias]: ruleset.lists[alias] ?? created }
      return ruleset
    })
    return listResource(created, true)
  })

  app.delete<{ Params: { alias: string } }>('/v1/lists/:alias', { config: { scope: 'rules:write' } }, async request => {
    const p = request.caller
    const scope = request.scope
    const { alias } = request.params
    const { ruleset } = await control.activeRuleset(scope)
    if (ruleset.lists[alias] === undefined) throw notFound('list', alias)
    // A list an active rule names would silently stop matching: refuse, as the rule must change first.
    const user = ruleset.rules.find(r => r.status === 'active' && (r.expression.includes(`"${alias}"`) || r.expression.includes(`'${alias}'`)))
    if (user !== undefined) throw new ApiError('resource_in_use', `List '${alias}' is used by active rule '${user.id}'.`, 'alias')
    await change(p, request.id, { type: 'list.deleted', alias }, current => {
      const { [alias]: _deleted, ...rest } = current.lists
      current.lists = rest
      return current
    })
    return { object: 'value_list', alias, deleted: true }
  })

  const changeItems = async (principal: Principal, requestId: string, alias: string, value: string, add: boolean) => {
    const scope = principalScope(principal)
    const list = (await control.activeRuleset(scope)).ruleset.lists[alias]
    if (list === undefined) throw notFound('list', alias)
    const invalid = add ? invalidListItem(list, value) : undefined
    if (invalid !== undefined) throw new ApiError('parameter_invalid', `Invalid value for '${list.item_type}' list: ${invalid}.`, 'value')
    let updated: ValueList = list
    await change(principal, requestId, { type: 'list.updated', alias }, ruleset => {
      const current = ruleset.lists[alias] ?? list
      const items = add ? (current.items.includes(value) ? current.items : [...current.items, value]) : current.items.filter(i => i !== value)
      updated = { ...current, items }
      ruleset.lists = { ...ruleset.lists, [alias]: updated }
      return ruleset
    })
    return listResource(updated, true)
  }

  app.post<{ Params: { alias: string }, Body: { value: string } }>('/v1/lists/:alias/items', {
    config: { scope: 'rules:write' },
    schema: { body: { type: 'object', additionalProperties: false, required: ['value'], properties: { value: { type: 'string', minLength: 1, maxLength: 256 } } } }
  }, request => changeItems(request.caller, request.id, request.params.alias, request.body.value, true))
  app.delete<{ Params: { alias: string, value: string } }>('/v1/lists/:alias/items/:value', { config: { scope: 'rules:write' } },
    request => changeItems(request.caller, request.id, request.params.alias, request.params.value, false))

  const riskResource = async (p: Principal) => {
    const scope = principalScope(p)
    const { ruleset } = await control.activeRuleset(scope)
    const { thresholds, actions } = policyOf(ruleset)
    const trained = core.modelRegistry.record(scope)
    return {
      object: 'risk_settings',
      livemode: p.mode === 'live',
      thresholds,
      actions,
      ruleset_version: ruleset.version,
      model: { version: core.modelRegistry.model(scope).version, trained_labels: trained?.trained ?? 0, trained_through: trained === undefined ? null : Math.floor(trained.trained_through_ms / 1000) }
    }
  }
  const level = { type: 'string', enum: ['approve', 'flag', 'reject'] } as const
  const unit = { type: 'number', exclusiveMinimum: 0, maximum: 1 } as const
  app.get('/v1/risk_settings', { config: { scope: 'rules:read' } }, request => riskResource(request.caller))
  /** Score -> risk level -> default action, per tenant and mode: a ruleset change like any other (versioned, audited). */
  app.post<{ Body: Partial<RiskSettings> }>('/v1/risk_settings', {
    config: { scope: 'rules:write' },
    schema: {
      body: {
        type: 'object',
        additionalProperties: false,
        properties: {
          thresholds: { type: 'object', additionalProperties: false, required: ['medium', 'high'], properties: { medium: unit, high: unit } },
          actions: { type: 'object', additionalProperties: false, required: ['low', 'medium', 'high'], properties: { low: level, medium: level, high: level } }
        }
      }
    }
  }, async request => {
    const p = request.caller
    const { thresholds, actions } = request.body
    if (thresholds !== undefined && thresholds.medium > thresholds.high) {
      throw new ApiError('parameter_invalid', "'thresholds.medium' must not exceed 'thresholds.high'.", 'thresholds.medium')
    }
    await change(p, request.id, { type: 'risk_settings.updated' }, ruleset => {
      const current = policyOf(ruleset)
      ruleset.risk = { thresholds: thresholds ?? current.thresholds, actions: actions ?? current.actions }
      return ruleset
    })
    return riskResource(p)
  })
}
