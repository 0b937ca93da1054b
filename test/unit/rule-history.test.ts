import { describe, expect, it } from 'vitest'
import type { Rule, Ruleset } from '../../src/domain/decision/types.js'
import type { TransactionRecord } from '../../src/domain/records/decisions.js'
import type { RulesetVersion } from '../../src/domain/records/rulesets.js'
import { ruleHistory } from '../../src/domain/rules/rule-history.js'
import { countPackHits } from '../../src/domain/rules/hits.js'
import { initialRuleset } from '../../src/domain/rules/ruleset-versions.js'

const rule = (id: string, fields: Partial<Rule> = {}): Rule =>
  ({ id, name: id, expression: 'request.amount > 10.0', action: 'flag', mode: 'enforce', priority: 100, description: '', status: 'active', ...fields })
const version = (number: number, rules: Rule[], change: RulesetVersion['change']): RulesetVersion =>
  ({ tenant_id: 't', mode: 'test', number, ruleset: { version: `rs_${number}`, rules, lists: {} }, created_ms: number * 1000, actor: 'key_1', change, proposal_id: `p${number}` })

describe('a rule\u2019s history', () => {
  it('holds the versions that changed the rule, whatever the change named', () => {
    const versions = [
      version(1, [rule('a')], { type: 'rule.upserted', rule_id: 'a' }),
      version(2, [rule('a'), rule('b')], { type: 'rule.upserted', rule_id: 'b' }),
      version(3, [rule('a', { mode: 'shadow' }), rule('b')], { type: 'rollout.updated', pack: 'p' }),
      version(4, [rule('a', { mode: 'shadow' }), rule('b')], { type: 'rollout.stopped', pack: 'p' }),
      version(5, [rule('a'), rule('b')], { type: 'rollout.promoted', pack: 'p' })
    ]
    expect(ruleHistory(versions, 'a').map(h => [h.version.number, h.rule.mode])).toEqual([[1, 'enforce'], [3, 'shadow'], [5, 'enforce']])
    expect(ruleHistory(versions, 'b').map(h => h.version.number)).toEqual([2])
    expect(ruleHistory(versions, 'c')).toEqual([])
  })

  it('leaves out the first version for a rule of the defaults it did not change', () => {
    const defaults = initialRuleset().rules
    const first = defaults[0]!
    const versions = [
      version(1, defaults, { type: 'list.created', alias: 'l' }),
      version(2, defaults.map(r => r.id === first.id ? { ...r, priority: 7 } : r), { type: 'rule.upserted', rule_id: first.id })
    ]
    expect(ruleHistory(versions, first.id).map(h => h.version.number)).toEqual([2])
  })
})

describe('a pack\u2019s hits', () => {
  const running = (id: string, percentage = 50): Ruleset['rollouts'] => ({ p: { pack: 'p', rule_ids: ['a'], percentage, id, status: 'running' } })
  const rulesets: Record<string, Ruleset> = {
    rs_1: { version: 'rs_1', rules: [], lists: {}, rollouts: running('rol_1') },
    rs_2: { version: 'rs_2', rules: [], lists: {}, rollouts: running('rol_2', 20) }
  }
  const decided = (ruleset: string, bucket: number | undefined, shadow?: string[]) => ({
    ruleset_version: ruleset,
    rollout_buckets: bucket === undefined ? {} : { p: bucket },
    decision: { rules: [], ...(shadow === undefined ? {} : { shadow: { action: 'flag', rules: shadow } }) }
  }) as unknown as TransactionRecord
  it('counts the decisions the current run ran for and its hits, not an earlier run\u2019s or those outside its share', () => {
    const records = [
      decided('rs_1', 10, ['a']), // the earlier run
      decided('rs_2', 10, ['a']),
      decided('rs_2', 15, []),
      decided('rs_2', 25, ['x']), // outside 20 %
      decided('rs_2', undefined),
      decided('rs_9', 1, ['a']) // a version this instance does not have
    ]
    expect(countPackHits(records, rulesets.rs_2!.rollouts!, v => rulesets[v])).toEqual({ p: { rollout_id: 'rol_2', decisions: 2, hits: 1 } })
    expect(countPackHits([], rulesets.rs_2!.rollouts!, v => rulesets[v])).toEqual({ p: { rollout_id: 'rol_2', decisions: 0, hits: 0 } })
  })
})
