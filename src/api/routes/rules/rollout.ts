import type { FastifyPluginAsync } from 'fastify'
import type { Rollout, RolloutEnded, Ruleset } from '../../../domain/decision/types.js'
import { newId } from '../../../domain/ids.js'
import { enforcedRules, promoteRollout, rollOut, stopRollout } from '../../../domain/rules/ruleset-edits.js'
import { ApiError, notFound } from '../../../services/errors.js'
import type { Principal } from '../../../services/auth.js'
import { changeRuleset, type RulesetChangeDeps } from './change.js'

const share = { type: 'number', minimum: 0, maximum: 1 } as const
const count = { type: 'integer', minimum: 1, maximum: 1_000_000_000 } as const
const stopConditionsSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: { max_hit_rate: share, min_decisions: count, min_precision: share, min_matured_hits: count }
} as const

/** A rollout as the API shows it: always shadow; `running` until a stop condition, a stop or a promotion ended it. */
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

type RolloutBody = Pick<Rollout, 'pack' | 'rule_ids' | 'percentage' | 'stop_conditions'> & { demote_enforced?: boolean }

/**
 * POST /v1/rules/rollout: a pack of rules in shadow mode for a share of traffic, a new run each time, with
 * optional stop conditions (the rollout guard stops it when one is crossed). A rule that decides now (active,
 * enforce) would stop deciding: the request is refused (409 rollout_demotes_enforced, naming them) unless it says
 * `demote_enforced: true`. GET /v1/rules/rollout and /v1/rules/rollout/:pack show the packs, their status and why
 * one stopped; POST /v1/rules/rollout/:pack/stop ends the running run, /promote makes the pack's rules enforce for
 * every request.
 */
export const rolloutRoutes: FastifyPluginAsync<RulesetChangeDeps> = async (app, deps) => {
  app.post<{ Body: RolloutBody }>('/v1/rules/rollout', {
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
          stop_conditions: stopConditionsSchema,
          demote_enforced: { type: 'boolean', description: 'Whether rules that decide now (active, enforce) may move to shadow with the pack; without it such a rollout is refused with 409 rollout_demotes_enforced.' }
        }
      }
    }
  }, async request => {
    const { pack, rule_ids: ruleIds, percentage, stop_conditions: stopConditions, demote_enforced: demote = false } = request.body
    /**
     * Checked on the ruleset the rollout is applied to (the control plane's edit, so a rule removed or set to
     * enforce meanwhile counts, and a refusal appends nothing): every rule known, and the rules that decide now
     * moved to shadow only when the caller said so. Returns those rules.
     */
    const demoted = (current: Ruleset) => {
      const known = new Set(current.rules.map(r => r.id))
      const unknown = ruleIds.find(id => !known.has(id))
      if (unknown !== undefined) throw new ApiError('parameter_invalid', `No such rule: '${unknown}'.`, 'rule_ids')
      const enforced = enforcedRules(current, ruleIds).map(r => r.id)
      if (enforced.length > 0 && !demote) {
        throw new ApiError('rollout_demotes_enforced',
          `Rolling out pack '${pack}' would move ${enforced.length === 1 ? 'a rule that decides now' : `${enforced.length} rules that decide now`} to shadow, where ${enforced.length === 1 ? 'it' : 'they'} would only report: ${enforced.join(', ')}. Send demote_enforced: true to roll ${enforced.length === 1 ? 'it' : 'them'} out anyway.`,
          'demote_enforced')
      }
      return enforced
    }
    const rollout = { pack, rule_ids: ruleIds, percentage, id: newId('rol'), ...(stopConditions === undefined ? {} : { stop_conditions: stopConditions }) }
    let enforced: string[] = []
    const version = await changeRuleset(deps, request.caller, request.id, { type: 'rollout.updated', pack }, current => { enforced = demoted(current); return rollOut(current, rollout) },
      () => ({ rollout_id: rollout.id, rule_ids: ruleIds, percentage, ...(enforced.length > 0 ? { demoted: enforced } : {}) }))
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

  /** The pack named by the path in a ruleset of the caller's own (another tenant's is not found). */
  const packIn = (ruleset: Ruleset, pack: string): Rollout => {
    const r = ruleset.rollouts?.[pack]
    if (r === undefined) throw notFound('rollout', pack)
    return r
  }
  /**
   * An edit of one pack, checked on the ruleset it is made to (the control plane reads the latest before it
   * appends): a pack stopped or promoted meanwhile is refused there, and a refusal appends and audits nothing.
   */
  const packEdit = (pack: string, check: (r: Rollout) => void, edit: (ruleset: Ruleset, r: Rollout) => Ruleset) => (ruleset: Ruleset) => {
    const r = packIn(ruleset, pack)
    check(r)
    return edit(ruleset, r)
  }
  const stoppable = (pack: string) => (r: Rollout) => {
    if (r.status === 'stopped') throw new ApiError('invalid_transition', `Pack '${pack}' is not running (${r.stopped?.reason ?? 'stopped'}); roll it out again to start a new run.`, 'pack')
  }
  const promotable = (pack: string) => (r: Rollout) => {
    if (r.stopped?.reason === 'promoted') throw new ApiError('invalid_transition', `Pack '${pack}' was promoted already.`, 'pack')
    if (r.rule_ids.length === 0) throw new ApiError('invalid_transition', `Pack '${pack}' has no rules left (they were rolled out in other packs); nothing to promote.`, 'pack')
  }
  const ended = (caller: Principal, reason: RolloutEnded['reason']): RolloutEnded => ({ reason, at: Math.floor(deps.clock() / 1000), actor: caller.actor })

  app.post<{ Params: { pack: string } }>('/v1/rules/rollout/:pack/stop', { config: { scope: 'rules:write' } }, async request => {
    const { pack } = request.params
    const stopped = ended(request.caller, 'stop_requested')
    let runId: string | undefined
    const version = await changeRuleset(deps, request.caller, request.id, { type: 'rollout.stopped', pack },
      packEdit(pack, stoppable(pack), (ruleset, r) => { runId = r.id; return stopRollout(ruleset, pack, r.id, stopped) }),
      () => ({ rollout_id: runId ?? null, reason: stopped.reason }))
    return rolloutResource(version.ruleset.rollouts![pack]!, version.ruleset.version)
  })

  app.post<{ Params: { pack: string } }>('/v1/rules/rollout/:pack/promote', { config: { scope: 'rules:write' } }, async request => {
    const { pack } = request.params
    const promoted = ended(request.caller, 'promoted')
    let run: Rollout | undefined
    const version = await changeRuleset(deps, request.caller, request.id, { type: 'rollout.promoted', pack },
      packEdit(pack, promotable(pack), (ruleset, r) => { run = r; return promoteRollout(ruleset, pack, r.id, promoted) }),
      () => ({ rollout_id: run?.id ?? null, rule_ids: run?.rule_ids ?? [] }))
    return rolloutResource(version.ruleset.rollouts![pack]!, version.ruleset.version)
  })
}
