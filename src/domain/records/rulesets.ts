import type { Ruleset } from '../decision/types.js'

/**
 * One immutable version of a tenant's ruleset (rules and lists) for one mode, as carried by the compacted
 * `rulesets` topic (key `<tenant>:<mode>:<number>`, so every version is kept). Version n is accepted only
 * on top of version n-1: the first record for a number in log order wins, every instance agrees. Its lists hold
 * their definitions and the items of versions written before list items became their own changes
 * (`ListItemChange`), which add to them.
 */
export interface RulesetVersion {
  tenant_id: string
  mode: 'live' | 'test'
  number: number
  ruleset: Ruleset
  created_ms: number
  /** Who made the change (API key id) and what it was, for history and audit (`list.updated` and `case.deny_listed`: item changes of versions written before items became their own changes). */
  actor: string
  change: { type: 'rule.upserted', rule_id: string } | { type: 'list.created' | 'list.updated' | 'list.deleted', alias: string } | { type: 'rollout.updated' | 'rollout.stopped' | 'rollout.promoted', pack: string } | { type: 'case.deny_listed', case_id: string } | { type: 'risk_settings.updated' }
  /** Unique per proposal, so the proposer can tell whether its record won. */
  proposal_id: string
}

export const recordKeyOf = (v: Pick<RulesetVersion, 'tenant_id' | 'mode' | 'number'>) => `${v.tenant_id}:${v.mode}:${String(v.number).padStart(10, '0')}`

/**
 * One value added to or removed from a list: its own change on the `rulesets` topic, ordered with the versions
 * of its tenant and mode (same partition key), not a ruleset version. Its record key names the item, so
 * compaction keeps each item's last change. Applied only while the version in force has the list.
 */
export interface ListItemChange {
  kind: 'list_item'
  tenant_id: string
  mode: 'live' | 'test'
  alias: string
  value: string
  op: 'add' | 'remove'
  created_ms: number
  /** API key id, or `case:<id>` for a fraud disposition's deny-listing. */
  actor: string
  proposal_id: string
}

export const itemRecordKeyOf = (c: Pick<ListItemChange, 'tenant_id' | 'mode' | 'alias' | 'value'>) => `${c.tenant_id}:${c.mode}:item:${c.alias}:${c.value}`

