import type { RiskSettings, Rule, Rollout, RolloutStop, Ruleset, ValueList } from '../decision/types.js'
import { policyOf } from '../decision/default-policy.js'

/**
 * Every change the rules API makes to a ruleset, as a pure function: the ruleset before -> the ruleset after.
 * No I/O, no clock, no errors: what a request may ask is checked before the change is proposed (by the route,
 * against the active ruleset), and the control plane re-applies the edit to the newest version when it lost a
 * race. The input is never modified; what an edit does not change is shared with it. `version` is left as it
 * is (the control plane labels the new version).
 */

/** What a rule is before a create names its fields (the required ones are checked by the caller). */
export function newRule (id: string): Rule {
  return { id, name: '', expression: '', action: 'flag', mode: 'enforce', priority: 100, description: '', status: 'active' }
}

/**
 * Creates rule `id`, or updates it: the fields given replace the rule's own (a new rule starts from
 * `newRule(id)`); `id` always wins over `fields.id`. A new rule goes last; an updated one keeps its place.
 */
export function upsertRule (ruleset: Ruleset, id: string, fields: Partial<Rule>): Ruleset {
  const current = ruleset.rules.find(r => r.id === id)
  const saved: Rule = { ...(current ?? newRule(id)), ...fields, id }
  return { ...ruleset, rules: current === undefined ? [...ruleset.rules, saved] : ruleset.rules.map(r => r.id === id ? saved : r) }
}

/**
 * Rolls `ruleIds` out as pack `pack` to `percentage` percent of traffic, as a new run `id` (with its stop
 * conditions, if any): the rules go to shadow mode, and a rule belongs to one pack, so moving it here takes it
 * out of any other (which stays, maybe empty).
 */
export function rollOut (ruleset: Ruleset, rollout: Pick<Rollout, 'pack' | 'rule_ids' | 'percentage' | 'id' | 'stop_conditions'>): Ruleset {
  const ruleIds = [...rollout.rule_ids]
  const rollouts = { ...(ruleset.rollouts ?? {}) }
  for (const [name, r] of Object.entries(rollouts)) rollouts[name] = { ...r, rule_ids: r.rule_ids.filter(id => !ruleIds.includes(id)) }
  rollouts[rollout.pack] = { ...rollout, rule_ids: ruleIds, status: 'running' }
  return { ...ruleset, rollouts, rules: ruleset.rules.map(r => ruleIds.includes(r.id) ? { ...r, mode: 'shadow' } : r) }
}

/**
 * The rules among `ruleIds` that decide now (active, in enforce mode): rolling them out would move them to shadow,
 * where they only report. POST /v1/rules/rollout refuses that unless the request says so.
 */
export function enforcedRules (ruleset: Ruleset, ruleIds: readonly string[]): Rule[] {
  return ruleset.rules.filter(r => ruleIds.includes(r.id) && r.status === 'active' && r.mode === 'enforce')
}

/** Stops run `id` of pack `pack` (its rules then run nowhere); nothing changes when that run is not the pack's running one. */
export function stopRollout (ruleset: Ruleset, pack: string, id: string | undefined, stopped: RolloutStop): Ruleset {
  const r = ruleset.rollouts?.[pack]
  if (r === undefined || r.id !== id || r.status === 'stopped') return ruleset
  return { ...ruleset, rollouts: { ...ruleset.rollouts, [pack]: { ...r, status: 'stopped', stopped } } }
}

/**
 * Promotes run `id` of pack `pack`: its rules decide for every request (enforce mode) and the run ends as
 * `promoted`. Nothing changes when that run is not the pack's, or was promoted already.
 */
export function promoteRollout (ruleset: Ruleset, pack: string, id: string | undefined, promoted: RolloutStop): Ruleset {
  const r = ruleset.rollouts?.[pack]
  if (r === undefined || r.id !== id || r.stopped?.reason === 'promoted') return ruleset
  return {
    ...ruleset,
    rollouts: { ...ruleset.rollouts, [pack]: { ...r, status: 'stopped', stopped: promoted } },
    rules: ruleset.rules.map(rule => r.rule_ids.includes(rule.id) ? { ...rule, mode: 'enforce' } : rule)
  }
}

/** Adds `list`; a list of the same alias already there is kept as it is. */
export function createList (ruleset: Ruleset, list: ValueList): Ruleset {
  return { ...ruleset, lists: { ...ruleset.lists, [list.alias]: ruleset.lists[list.alias] ?? list } }
}

/** Removes list `alias` (nothing changes when there is none). Rules naming it are not touched: see ruleUsingList. */
export function deleteList (ruleset: Ruleset, alias: string): Ruleset {
  const { [alias]: _deleted, ...lists } = ruleset.lists
  return { ...ruleset, lists }
}

/**
 * The active rule that names list `alias` in its expression (as a quoted string), if any: deleting the list
 * would make it silently stop matching.
 */
export function ruleUsingList (ruleset: Ruleset, alias: string): Rule | undefined {
  return ruleset.rules.find(r => r.status === 'active' && (r.expression.includes(`"${alias}"`) || r.expression.includes(`'${alias}'`)))
}

/**
 * Sets the risk thresholds and/or the action per risk level; what is not given stays as the ruleset has it (the
 * defaults when it has none), and the ruleset then carries both.
 */
export function updateRiskSettings (ruleset: Ruleset, settings: Partial<RiskSettings>): Ruleset {
  const current = policyOf(ruleset)
  return { ...ruleset, risk: { thresholds: settings.thresholds ?? current.thresholds, actions: settings.actions ?? current.actions } }
}
