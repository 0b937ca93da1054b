import { defaultPolicy } from '../decision/default-policy.js'
import type { Ruleset } from '../decision/types.js'

export const versionLabel = (n: number) => n === 0 ? defaultPolicy().ruleset.version : `rs_${n}`

/** The number of a version label (versionLabel's inverse), undefined for a label that is not one. */
export function versionNumber (label: string): number | undefined {
  if (label === versionLabel(0)) return 0
  const m = /^rs_([1-9][0-9]{0,9})$/.exec(label)
  return m === null ? undefined : Number(m[1])
}

/** Version 0: what a tenant has before its first change. */
export function initialRuleset (): Ruleset {
  return defaultPolicy().ruleset
}
