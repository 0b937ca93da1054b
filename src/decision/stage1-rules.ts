import { stricter } from './actions.js'
import { SUBJECTS, type Action, type Ruleset, type ScoreRequest } from './types.js'

export interface RulesOutcome {
  /** Ids of the tenant rules that matched, in ruleset order. */
  matched: string[]
  /** Strictest action among matched rules, or null when none matched. */
  action: Action | null
}

function onDenyList (request: ScoreRequest, ruleset: Ruleset): boolean {
  for (const subject of SUBJECTS) {
    const value = request[subject]
    if (value !== undefined && ruleset.deny[subject]?.includes(value) === true) return true
  }
  return false
}

/** Stage 1: the tenant's deterministic rules. Pure. */
export function evaluateRules (request: ScoreRequest, ruleset: Ruleset): RulesOutcome {
  const matched: string[] = []
  let action: Action | null = null
  for (const rule of ruleset.rules) {
    const hit = rule.kind === 'deny_list'
      ? onDenyList(request, ruleset)
      : request.amount !== undefined && request.amount > rule.above
    if (!hit) continue
    matched.push(rule.id)
    action = action === null ? rule.action : stricter(action, rule.action)
  }
  return { matched, action }
}
