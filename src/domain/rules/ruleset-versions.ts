import { defaultPolicy } from '../decision/default-policy.js'
import type { Ruleset } from '../decision/types.js'

export const versionLabel = (n: number) => n === 0 ? defaultPolicy().ruleset.version : `rs_${n}`

/** Version 0: what a tenant has before its first change. */
export function initialRuleset (): Ruleset {
  return defaultPolicy().ruleset
}
