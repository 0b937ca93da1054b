import { describe, expect, it } from 'vitest'
import type { Rule, Ruleset, ValueList } from '../../src/domain/decision/types.js'
import { defaultRiskSettings } from '../../src/domain/decision/default-policy.js'
import {
  createList, deleteList, enforcedRules, newRule, promoteRollout, rollOut, stopRollout, ruleUsingList, updateRiskSettings, upsertRule
} from '../../src/domain/rules/ruleset-edits.js'

const rule = (id: string, fields: Partial<Rule> = {}): Rule =>
  ({ id, name: id, expression: 'request.amount > 10.0', action: 'flag', mode: 'enforce', priority: 100, description: '', status: 'active', ...fields })
const list = (alias: string, items: string[] = [], item_type: ValueList['item_type'] = 'user_id'): ValueList => ({ alias, item_type, items })

/** Frozen all the way down: an edit that modifies its input throws (ES modules are strict). */
function deepFreeze<T> (value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const v of Object.values(value)) deepFreeze(v)
  }
  return value
}

/** A hand-built ruleset, frozen, with a copy to compare it against after the edit. */
function given (ruleset: Ruleset): { before: Ruleset, copy: Ruleset } {
  const copy = structuredClone(ruleset)
  return { before: deepFreeze(ruleset), copy }
}

const base = (): Ruleset => ({
  version: 'rs_7',
  rules: [rule('a'), rule('b', { action: 'reject', expression: 'in_list("deny_users", request.user_id)' }), rule('c', { status: 'disabled', expression: "in_list('old', request.ip)" })],
  lists: { deny_users: list('deny_users', ['u1', 'u2']), old: list('old', ['10.0.0.0/8'], 'ip') }
})

describe('upsertRule', () => {
  it('creates a rule from the defaults and the fields given, last, leaving the rest as it was', () => {
    const { before, copy } = given(base())
    const after = upsertRule(before, 'd', { name: 'New', expression: 'true', action: 'reject' })
    expect(after.rules.map(r => r.id)).toEqual(['a', 'b', 'c', 'd'])
    expect(after.rules[3]).toEqual({ ...newRule('d'), name: 'New', expression: 'true', action: 'reject' })
    expect(after.rules.slice(0, 3)).toEqual(copy.rules)
    expect(after.lists).toBe(before.lists)
    expect(after.version).toBe('rs_7')
    expect(before).toEqual(copy)
  })

  it('updates only the fields given, in place; the id cannot be changed by the fields', () => {
    const { before, copy } = given(base())
    const after = upsertRule(before, 'b', { id: 'zzz', status: 'disabled', priority: 5 })
    expect(after.rules.map(r => r.id)).toEqual(['a', 'b', 'c'])
    expect(after.rules[1]).toEqual({ ...copy.rules[1], status: 'disabled', priority: 5 })
    expect(after.rules[0]).toBe(before.rules[0])
    expect(after.rules[2]).toBe(before.rules[2])
    expect(before).toEqual(copy)
  })

  it('a new rule starts enforced, active, flagging, priority 100', () => {
    expect(newRule('x')).toEqual({ id: 'x', name: '', expression: '', action: 'flag', mode: 'enforce', priority: 100, description: '', status: 'active' })
  })
})

describe('rollOut', () => {
  it('creates the pack and puts its rules in shadow mode', () => {
    const { before, copy } = given(base())
    const after = rollOut(before, { pack: 'p1', rule_ids: ['a', 'c'], percentage: 10 })
    expect(after.rollouts).toEqual({ p1: { pack: 'p1', rule_ids: ['a', 'c'], percentage: 10, status: 'running' } })
    expect(after.rules.map(r => r.mode)).toEqual(['shadow', 'enforce', 'shadow'])
    expect(after.rules[1]).toBe(before.rules[1])
    expect({ ...after.rules[0], mode: 'enforce' }).toEqual(copy.rules[0])
    expect(after.lists).toBe(before.lists)
    expect(before).toEqual(copy)
    expect(before.rollouts).toBeUndefined()
  })

  it('moves a rule out of any other pack, which stays (maybe empty); re-rolling a pack replaces it', () => {
    const { before, copy } = given({ ...base(), rollouts: { p1: { pack: 'p1', rule_ids: ['a', 'b'], percentage: 10 }, p2: { pack: 'p2', rule_ids: ['c'], percentage: 50 } } })
    const after = rollOut(before, { pack: 'p3', rule_ids: ['b', 'c'], percentage: 0 })
    expect(after.rollouts).toEqual({
      p1: { pack: 'p1', rule_ids: ['a'], percentage: 10 },
      p2: { pack: 'p2', rule_ids: [], percentage: 50 },
      p3: { pack: 'p3', rule_ids: ['b', 'c'], percentage: 0, status: 'running' }
    })
    const again = rollOut(after, { pack: 'p1', rule_ids: ['c'], percentage: 100, id: 'rol_2' })
    expect(again.rollouts!.p1).toEqual({ pack: 'p1', rule_ids: ['c'], percentage: 100, id: 'rol_2', status: 'running' })
    expect(again.rollouts!.p3).toEqual({ pack: 'p3', rule_ids: ['b'], percentage: 0, status: 'running' })
    expect(before).toEqual(copy)
  })

  it('does not keep the caller\'s array of rule ids', () => {
    const ruleIds = ['a']
    const after = rollOut(base(), { pack: 'p1', rule_ids: ruleIds, percentage: 5 })
    ruleIds.push('b')
    expect(after.rollouts!.p1!.rule_ids).toEqual(['a'])
  })
})

describe('stopRollout', () => {
  const stop = { reason: 'hit_rate' as const, at: 1, decisions: 10, hits: 9, matured_hits: 0, matured_frauds: 0, hit_rate: 0.9, precision: null }
  it('stops the pack\'s running run, and only that run', () => {
    const before = rollOut(base(), { pack: 'p1', rule_ids: ['a'], percentage: 5, id: 'rol_1', stop_conditions: { max_hit_rate: 0.1 } })
    expect(stopRollout(before, 'p1', 'rol_0', stop)).toBe(before)
    const after = stopRollout(before, 'p1', 'rol_1', stop)
    expect(after.rollouts!.p1).toEqual({ ...before.rollouts!.p1, status: 'stopped', stopped: stop })
    expect(after.rules).toBe(before.rules)
    expect(stopRollout(after, 'p1', 'rol_1', { ...stop, at: 2 })).toBe(after)
    expect(stopRollout(after, 'p2', 'rol_1', stop)).toBe(after)
  })
})

describe('enforcedRules', () => {
  it('are the named rules that decide now: active and enforce, not shadow or disabled ones', () => {
    const { before } = given({ ...base(), rules: [...base().rules, rule('d', { mode: 'shadow' })] })
    expect(enforcedRules(before, ['a', 'c', 'd']).map(r => r.id)).toEqual(['a'])
    expect(enforcedRules(before, ['b', 'a']).map(r => r.id)).toEqual(['a', 'b'])
    expect(enforcedRules(before, [])).toEqual([])
  })
})

describe('promoteRollout', () => {
  const promoted = { reason: 'promoted' as const, at: 5, actor: 'usr_1' }
  it('makes the pack\'s rules enforce and ends its run as promoted; the input is left as it was', () => {
    const rolled = rollOut(base(), { pack: 'p1', rule_ids: ['a', 'b'], percentage: 5, id: 'rol_1' })
    const { before, copy } = given(rolled)
    const after = promoteRollout(before, 'p1', 'rol_1', promoted)
    expect(after.rules.map(r => [r.id, r.mode])).toEqual([['a', 'enforce'], ['b', 'enforce'], ['c', 'enforce']])
    expect(after.rollouts!.p1).toEqual({ ...before.rollouts!.p1, status: 'stopped', stopped: promoted })
    expect(before).toEqual(copy)
  })
  it('changes nothing for another run, a missing pack, or a promoted one; a stopped run may still be promoted', () => {
    const rolled = rollOut(base(), { pack: 'p1', rule_ids: ['a'], percentage: 5, id: 'rol_1' })
    expect(promoteRollout(rolled, 'p1', 'rol_0', promoted)).toBe(rolled)
    expect(promoteRollout(rolled, 'p2', 'rol_1', promoted)).toBe(rolled)
    const once = promoteRollout(rolled, 'p1', 'rol_1', promoted)
    expect(promoteRollout(once, 'p1', 'rol_1', { ...promoted, at: 6 })).toBe(once)
    const stopped = stopRollout(rolled, 'p1', 'rol_1', { reason: 'stop_requested', at: 4, actor: 'usr_2' })
    expect(promoteRollout(stopped, 'p1', 'rol_1', promoted).rollouts!.p1!.stopped).toEqual(promoted)
  })
})

describe('lists', () => {
  it('createList adds a list; one of the same alias already there is kept', () => {
    const { before, copy } = given(base())
    const created = list('allow_ips', [], 'ip')
    const after = createList(before, created)
    expect(after.lists.allow_ips).toBe(created)
    expect(Object.keys(after.lists)).toEqual(['deny_users', 'old', 'allow_ips'])
    expect(after.rules).toBe(before.rules)
    const kept = createList(before, list('deny_users', [], 'email'))
    expect(kept.lists.deny_users).toBe(before.lists.deny_users)
    expect(before).toEqual(copy)
  })

  it('deleteList removes a list and nothing else; an unknown alias changes nothing', () => {
    const { before, copy } = given(base())
    const after = deleteList(before, 'old')
    expect(after.lists).toEqual({ deny_users: copy.lists.deny_users })
    expect(after.rules).toBe(before.rules)
    expect(deleteList(before, 'nope')).toEqual(copy)
    expect(before).toEqual(copy)
  })

  it('ruleUsingList names an active rule quoting the alias (either quotes), never a disabled one', () => {
    const ruleset = deepFreeze(base())
    expect(ruleUsingList(ruleset, 'deny_users')?.id).toBe('b')
    expect(ruleUsingList(ruleset, 'old')).toBeUndefined()
    expect(ruleUsingList(upsertRule(ruleset, 'c', { status: 'active' }), 'old')?.id).toBe('c')
    expect(ruleUsingList(ruleset, 'deny')).toBeUndefined()
  })
})

describe('updateRiskSettings', () => {
  it('sets thresholds and keeps the default actions when the ruleset has no risk settings', () => {
    const { before, copy } = given(base())
    const after = updateRiskSettings(before, { thresholds: { medium: 0.4, high: 0.9 } })
    expect(after.risk).toEqual({ thresholds: { medium: 0.4, high: 0.9 }, actions: defaultRiskSettings().actions })
    expect(after.rules).toBe(before.rules)
    expect(after.lists).toBe(before.lists)
    expect(before).toEqual(copy)
    expect(before.risk).toBeUndefined()
  })

  it('sets actions and keeps the ruleset\'s own thresholds; nothing given keeps both', () => {
    const { before, copy } = given({ ...base(), risk: { thresholds: { medium: 0.5, high: 0.6 }, actions: { low: 'approve', medium: 'flag', high: 'reject' } } })
    const after = updateRiskSettings(before, { actions: { low: 'flag', medium: 'reject', high: 'reject' } })
    expect(after.risk).toEqual({ thresholds: { medium: 0.5, high: 0.6 }, actions: { low: 'flag', medium: 'reject', high: 'reject' } })
    expect(updateRiskSettings(before, {}).risk).toEqual(copy.risk)
    expect(updateRiskSettings(before, { thresholds: undefined, actions: undefined })).toEqual(copy)
    expect(before).toEqual(copy)
  })

  it('with neither given, writes the defaults into a ruleset that had none', () => {
    expect(updateRiskSettings(deepFreeze(base()), {}).risk).toEqual(defaultRiskSettings())
  })
})
