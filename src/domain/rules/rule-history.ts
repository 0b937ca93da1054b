import { isDeepStrictEqual } from 'node:util'
import type { Rule } from '../decision/types.js'
import type { RulesetVersion } from '../records/rulesets.js'
import { initialRuleset } from './ruleset-versions.js'

/**
 * The versions in which rule `id` changed, oldest first, each with the rule as it left it: the saves of the rule
 * and also the changes it did not name (a rollout that moved it to shadow, a promotion back to enforce). A
 * version that left the rule as it was is not one of them, nor is the first version for a rule of the defaults
 * (version 0) it did not change. Pure.
 */
export function ruleHistory (versions: Iterable<RulesetVersion>, id: string): Array<{ version: RulesetVersion, rule: Rule }> {
  const out: Array<{ version: RulesetVersion, rule: Rule }> = []
  let before = initialRuleset().rules.find(r => r.id === id)
  for (const version of versions) {
    const rule = version.ruleset.rules.find(r => r.id === id)
    if (rule !== undefined && (before === undefined || !isDeepStrictEqual(rule, before))) out.push({ version, rule })
    before = rule
  }
  return out
}
