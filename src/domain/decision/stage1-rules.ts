import { stricter } from './actions.js'
import type { Activation } from '../rules/language.js'
import type { CompiledRuleEntry } from '../rules/ruleset.js'
import type { Action } from './types.js'

/** What a set of rules concluded: the ids that matched and the action they call for (null: none matched). */
export interface RulesVerdict {
  matched: string[]
  action: Action | null
}

export interface RulesOutcome {
  enforce: RulesVerdict
  /** Present when the ruleset has shadow rules. */
  shadow: RulesVerdict | undefined
  errors: Array<{ id: string, error: string }>
}

/** Allow rules run first and short-circuit; then every reject and flag rule runs, the strictest action wins. */
function run (entries: readonly CompiledRuleEntry[], bound: Activation, errors: RulesOutcome['errors']): RulesVerdict {
  const matched: string[] = []
  let action: Action | null = null
  for (const { rule, program } of entries) {
    const result = program.evaluate(bound)
    if (result.error !== undefined) { errors.push({ id: rule.id, error: result.error }); continue }
    if (!result.matched) continue
    if (rule.action === 'approve') return { matched: [rule.id], action: 'approve' }
    matched.push(rule.id)
    action = action === null ? rule.action : stricter(action, rule.action)
  }
  return { matched, action }
}

/** Stage 1: the tenant's deterministic rules, enforce and the shadow rules that apply to this request. Pure. */
export function evaluateRules (enforceRules: readonly CompiledRuleEntry[], shadowRules: readonly CompiledRuleEntry[], bound: Activation): RulesOutcome {
  const errors: RulesOutcome['errors'] = []
  const enforce = run(enforceRules, bound, errors)
  const shadow = shadowRules.length === 0 ? undefined : run(shadowRules, bound, errors)
  return { enforce, shadow, errors }
}

/** The action after Stage 1 and Stage 2: an allow rule approves; otherwise the stricter of rules and score. */
export function combine (verdict: RulesVerdict, scored: Action): Action {
  if (verdict.action === 'approve') return 'approve'
  return verdict.action === null ? scored : stricter(verdict.action, scored)
}

/** Enforce and shadow verdicts together: what the rules would decide if the shadow rules were enforced. */
export function withShadow (enforce: RulesVerdict, shadow: RulesVerdict): RulesVerdict {
  if (enforce.action === 'approve' || shadow.action === 'approve') return { matched: [...enforce.matched, ...shadow.matched], action: 'approve' }
  const action = enforce.action === null ? shadow.action : shadow.action === null ? enforce.action : stricter(enforce.action, shadow.action)
  return { matched: [...enforce.matched, ...shadow.matched], action }
}
