import type { Ruleset } from '../decision/types.js'

/**
 * One immutable version of a tenant's ruleset (rules and lists) for one mode, as carried by the compacted
 * `rulesets` topic (key `<tenant>:<mode>:<number>`, so every version is kept). Version n is accepted only
 * on top of version n-1: the first record for a number in log order wins, every instance agrees.
 */
export interface RulesetVersion {
  tenant_id: string
  mode: 'live' | 'test'
  number: number
  ruleset: Ruleset
  created_ms: number
  /** Who made the change (API key id) and what it was, for history and audit. */
  actor: string
  change: { type: 'rule.upserted', rule_id: string } | { type: 'list.created' | 'list.updated' | 'list.deleted', alias: string } | { type: 'rollout.updated', pack: string } | { type: 'case.deny_listed', case_id: string } | { type: 'risk_settings.updated' }
  /** Unique per proposal, so the proposer can tell whether its record won. */
  proposal_id: string
}

export const recordKeyOf = (v: Pick<RulesetVersion, 'tenant_id' | 'mode' | 'number'>) => `${v.tenant_id}:${v.mode}:${String(v.number).padStart(10, '0')}`
