import { LRUCache } from 'lru-cache'
import type { Action, Rule, Ruleset } from '../decision/types.js'
import { compileRule, type CompiledRule } from './language.js'
import { compileList, type ListMatcher } from './lists.js'
import { MODEL_NEEDS } from '../features/model-needs.js'
import { featureName, type VelocityNeed } from '../features/velocity-spec.js'

export interface CompiledRuleEntry { rule: Rule, program: CompiledRule }

export interface CompiledPack { pack: string, percentage: number, entries: CompiledRuleEntry[] }

/**
 * A ruleset ready to evaluate: active rules grouped by mode and ordered (allow, reject, flag; then priority,
 * id). Shadow rules in a rolled-out pack run only for the pack's share of traffic (none once it stopped); other
 * shadow rules always.
 */
export interface CompiledRuleset {
  version: string
  enforce: CompiledRuleEntry[]
  shadow: CompiledRuleEntry[]
  packs: CompiledPack[]
  lists: Record<string, ListMatcher>
  /** Velocity the model and every active rule read, each once: what a request loads and keeps counting. */
  velocityNeeds: VelocityNeed[]
}

const ACTION_ORDER: Record<Action, number> = { approve: 0, reject: 1, flag: 2 }

const byEvaluationOrder = (a: Rule, b: Rule) =>
  ACTION_ORDER[a.action] - ACTION_ORDER[b.action] || a.priority - b.priority || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

export function inEvaluationOrder (entries: CompiledRuleEntry[]): CompiledRuleEntry[] {
  return entries.sort((a, b) => byEvaluationOrder(a.rule, b.rule))
}

function ordered (rules: Rule[]): CompiledRuleEntry[] {
  return inEvaluationOrder(rules.map(rule => ({ rule, program: compileRule(rule.expression) })))
}

export function compileRuleset (ruleset: Ruleset): CompiledRuleset {
  const active = ruleset.rules.filter(r => r.status === 'active')
  const lists: Record<string, ListMatcher> = {}
  for (const [alias, list] of Object.entries(ruleset.lists)) lists[alias] = compileList(list)
  const rollouts = Object.values(ruleset.rollouts ?? {})
  const packOf = new Map<string, string>()
  for (const r of rollouts) for (const id of r.rule_ids) packOf.set(id, r.pack)
  const shadow = active.filter(r => r.mode === 'shadow')
  const compiled = {
    version: ruleset.version,
    enforce: ordered(active.filter(r => r.mode === 'enforce')),
    shadow: ordered(shadow.filter(r => !packOf.has(r.id))),
    packs: rollouts.filter(r => r.status !== 'stopped').map(r => ({ pack: r.pack, percentage: r.percentage, entries: ordered(shadow.filter(s => packOf.get(s.id) === r.pack)) })),
    lists
  }
  const needs = new Map(MODEL_NEEDS.map(n => [featureName(n), n]))
  for (const entry of [...compiled.enforce, ...compiled.shadow, ...compiled.packs.flatMap(p => p.entries)]) {
    for (const n of entry.program.needs) needs.set(featureName(n), n)
  }
  return { ...compiled, velocityNeeds: [...needs.values()] }
}

/** Compiles each ruleset version once; versions are immutable, so the cache never goes stale. */
export class RulesetCache {
  private readonly compiled: LRUCache<string, CompiledRuleset>

  constructor (max = 1000) {
    this.compiled = new LRUCache({ max })
  }

  get (scopeKey: string, ruleset: Ruleset): CompiledRuleset {
    const key = `${scopeKey}\u0000${ruleset.version}`
    let hit = this.compiled.get(key)
    if (hit === undefined) {
      hit = compileRuleset(ruleset)
      this.compiled.set(key, hit)
    }
    return hit
  }
}
