import { LRUCache } from 'lru-cache'
import type { Action, Rule, Ruleset } from '../decision/types.js'
import { compileRule, RuleSyntaxError, type CompiledRule } from './language.js'
import { PatternCache } from './regex.js'
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

/**
 * A stored rule that no longer compiles (saved before a check the language has now, such as the cost limit or
 * RE2 patterns) never runs: every evaluation reports why, in the decision's `rule_errors`, and it does not match.
 */
function refused (expression: string, err: RuleSyntaxError): CompiledRule {
  const error = `refused: ${err.message} (line ${err.position.line}, column ${err.position.column}); save the rule again once fixed`
  return { expression, needs: [], cost: 0, evaluate: () => ({ matched: false, error }) }
}

/** Programs by expression, shared by the ruleset versions of a RulesetCache: a new version compiles only what changed. */
export interface ProgramCache { get(expression: string): CompiledRule | undefined, set(expression: string, program: CompiledRule): unknown }

function compileStored (expression: string, patterns: PatternCache, programs: ProgramCache | undefined): CompiledRule {
  const known = programs?.get(expression)
  if (known !== undefined) return known
  let program: CompiledRule
  try {
    program = compileRule(expression, patterns)
  } catch (err) {
    if (!(err instanceof RuleSyntaxError)) throw err
    program = refused(expression, err)
  }
  programs?.set(expression, program)
  return program
}

function ordered (rules: Rule[], patterns: PatternCache, programs: ProgramCache | undefined): CompiledRuleEntry[] {
  return inEvaluationOrder(rules.map(rule => ({ rule, program: compileStored(rule.expression, patterns, programs) })))
}

export function compileRuleset (ruleset: Ruleset, programs?: ProgramCache): CompiledRuleset {
  const active = ruleset.rules.filter(r => r.status === 'active')
  const lists: Record<string, ListMatcher> = {}
  for (const [alias, list] of Object.entries(ruleset.lists)) lists[alias] = compileList(list)
  const rollouts = Object.values(ruleset.rollouts ?? {})
  const packOf = new Map<string, string>()
  for (const r of rollouts) for (const id of r.rule_ids) packOf.set(id, r.pack)
  const shadow = active.filter(r => r.mode === 'shadow')
  // One pattern cache per ruleset compile: rules naming the same regular expression share its RE2 program.
  const patterns = new PatternCache()
  const compiled = {
    version: ruleset.version,
    enforce: ordered(active.filter(r => r.mode === 'enforce'), patterns, programs),
    shadow: ordered(shadow.filter(r => !packOf.has(r.id)), patterns, programs),
    packs: rollouts.filter(r => r.status !== 'stopped').map(r => ({ pack: r.pack, percentage: r.percentage, entries: ordered(shadow.filter(s => packOf.get(s.id) === r.pack), patterns, programs) })),
    lists
  }
  const needs = new Map(MODEL_NEEDS.map(n => [featureName(n), n]))
  for (const entry of [...compiled.enforce, ...compiled.shadow, ...compiled.packs.flatMap(p => p.entries)]) {
    for (const n of entry.program.needs) needs.set(featureName(n), n)
  }
  return { ...compiled, velocityNeeds: [...needs.values()] }
}

/**
 * Compiles each ruleset version once; versions are immutable, so the cache never goes stale. Programs are kept
 * by expression across versions (compiled programs do not change either): saving one rule compiles that rule,
 * not every rule of the ruleset again.
 */
export class RulesetCache {
  private readonly compiled: LRUCache<string, CompiledRuleset>
  private readonly programs = new LRUCache<string, CompiledRule>({ max: 5000 })

  constructor (max = 1000) {
    this.compiled = new LRUCache({ max })
  }

  get (scopeKey: string, ruleset: Ruleset): CompiledRuleset {
    const key = `${scopeKey}\u0000${ruleset.version}`
    let hit = this.compiled.get(key)
    if (hit === undefined) {
      hit = compileRuleset(ruleset, this.programs)
      this.compiled.set(key, hit)
    }
    return hit
  }
}
