import type { FastifyPluginAsync } from 'fastify'
import { rollOut } from '../../../domain/rules/ruleset-edits.js'
import { ApiError } from '../../../services/errors.js'
import { changeRuleset, type RulesetChangeDeps } from './change.js'

/** POST /v1/rules/rollout: a pack of rules in shadow mode for a share of traffic. */
export const rolloutRoutes: FastifyPluginAsync<RulesetChangeDeps> = async (app, deps) => {
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
    const { pack, rule_ids: ruleIds, percentage } = request.body
    const known = new Set((await deps.control.activeRuleset(request.scope)).ruleset.rules.map(r => r.id))
    const unknown = ruleIds.find(id => !known.has(id))
    if (unknown !== undefined) throw new ApiError('parameter_invalid', `No such rule: '${unknown}'.`, 'rule_ids')
    const version = await changeRuleset(deps, request.caller, request.id, { type: 'rollout.updated', pack }, ruleset => rollOut(ruleset, { pack, ruleIds, percentage }))
    return { object: 'rollout', pack, rule_ids: ruleIds, percentage, mode: 'shadow', ruleset_version: version.ruleset.version }
  })
}
