import type { FastifyPluginAsync } from 'fastify'
import type { Rollout } from '../../../domain/decision/types.js'
import { newId } from '../../../domain/ids.js'
import { rollOut } from '../../../domain/rules/ruleset-edits.js'
import { ApiError, notFound } from '../../../services/errors.js'
import { changeRuleset, type RulesetChangeDeps } from './change.js'

const share = { type: 'number', minimum: 0, maximum: 1 } as const
const count = { type: 'integer', minimum: 1, maximum: 1_000_000_000 } as const
const stopConditionsSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: { max_hit_rate: share, min_decisions: count, min_precision: share, min_matured_hits: count }
} as const

/** A rollout as the API shows it: always shadow; `running` until a stop condition stopped it. */
export function rolloutResource (r: Rollout, rulesetVersion: string) {
  return {
    object: 'rollout',
    id: r.id ?? null,
    pack: r.pack,
    rule_ids: r.rule_ids,
    percentage: r.percentage,
    mode: 'shadow',
    status: r.status ?? 'running',
    stop_conditions: r.stop_conditions ?? null,
    stopped: r.stopped ?? null,
    ruleset_version: rulesetVersion
  }
}

/**
 * POST /v1/rules/rollout: a pack of rules in shadow mode for a share of traffic, a new run each time, with
 * optional stop conditions (the rollout guard stops it when one is crossed). GET /v1/rules/rollout and
 * /v1/rules/rollout/:pack show the packs, their status and why one stopped.
 */
export const rolloutRoutes: FastifyPluginAsync<RulesetChangeDeps> = async (app, deps) => {
  app.post<{ Body: Pick<Rollout, 'pack' | 'rule_ids' | 'percentage' | 'stop_conditions'> }>('/v1/rules/rollout', {
    config: { scope: 'rules:write' },
    schema: {
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['pack', 'rule_ids', 'percentage'],
        properties: {
          pack: { type: 'string', pattern: '^[a-z0-9_]{1,64}$' },
          rule_ids: { type: 'array', minItems: 1, maxItems: 100, uniqueItems: true, items: { type: 'string', minLength: 1 } },
          percentage: { type: 'number', minimum: 0, maximum: 100 },
          stop_conditions: stopConditionsSchema
        }
      }
    }
  }, async request => {
    const { pack, rule_ids: ruleIds, percentage, stop_conditions: stopConditions } = request.body
    const known = new Set((await deps.control.activeRuleset(request.scope)).ruleset.rules.map(r => r.id))
    const unknown = ruleIds.find(id => !known.has(id))
    if (unknown !== undefined) throw new ApiError('parameter_invalid', `No such rule: '${unknown}'.`, 'rule_ids')
    const rollout = { pack, rule_ids: ruleIds, percentage, id: newId('rol'), ...(stopConditions === undefined ? {} : { stop_conditions: stopConditions }) }
    const version = await changeRuleset(deps, request.caller, request.id, { type: 'rollout.updated', pack }, ruleset => rollOut(ruleset, rollout))
    return rolloutResource(version.ruleset.rollouts![pack]!, version.ruleset.version)
  })

  app.get('/v1/rules/rollout', { config: { scope: 'rules:read' } }, async request => {
    const { ruleset } = await deps.control.activeRuleset(request.scope)
    const data = Object.values(ruleset.rollouts ?? {}).sort((a, b) => a.pack < b.pack ? -1 : 1).map(r => rolloutResource(r, ruleset.version))
    return { object: 'list', url: '/v1/rules/rollout', has_more: false, data }
  })

  app.get<{ Params: { pack: string } }>('/v1/rules/rollout/:pack', { config: { scope: 'rules:read' } }, async request => {
    const { ruleset } = await deps.control.activeRuleset(request.scope)
    const r = ruleset.rollouts?.[request.params.pack]
    if (r === undefined) throw notFound('rollout', request.params.pack)
    return rolloutResource(r, ruleset.version)
  })
}
