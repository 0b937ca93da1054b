import { DEFAULT_THRESHOLDS } from './risk-level.js'
import type { ListItemType, RiskSettings, Rule, Ruleset, TenantPolicy, ValueList } from './types.js'

const rule = (id: string, name: string, expression: string, action: Rule['action'], description: string): Rule =>
  ({ id, name, expression, action, mode: 'enforce', priority: 100, description, status: 'active' })

/** `in_list` over several attributes, each guarded by has() so a request lacking one is no error. */
const anyInList = (pairs: Array<[string, string]>) =>
  pairs.map(([alias, attr]) => `(has(${attr}) && in_list("${alias}", ${attr}))`).join(' || ')

const list = (alias: string, item_type: ListItemType): ValueList => ({ alias, item_type, items: [] })

/** The lists every tenant starts with, referenced by the default allow-list and deny-list rules. */
export const DEFAULT_LISTS: readonly ValueList[] = [
  list('allow_users', 'user_id'), list('allow_emails', 'email'), list('allow_devices', 'device_id'), list('allow_ips', 'ip'), list('allow_cards', 'card'),
  list('deny_users', 'user_id'), list('deny_emails', 'email'), list('deny_devices', 'device_id'), list('deny_ips', 'ip'), list('deny_countries', 'country'), list('deny_cards', 'card')
]

/** The policy a tenant starts with: allow and deny lists (empty), one amount threshold, default risk mapping. */
export function defaultPolicy (): TenantPolicy {
  return {
    ruleset: {
      version: 'rs_default_2',
      rules: [
        rule('allow_list', 'Allow-listed subject', anyInList([['allow_users', 'request.user_id'], ['allow_emails', 'request.email'], ['allow_devices', 'request.device_id'], ['allow_ips', 'request.ip'], ['allow_cards', 'custom.card_fingerprint']]), 'approve', 'Approves requests naming an allow-listed user, email, device, IP or card.'),
        rule('deny_list', 'Deny-listed subject', anyInList([['deny_users', 'request.user_id'], ['deny_emails', 'request.email'], ['deny_devices', 'request.device_id'], ['deny_ips', 'request.ip'], ['deny_countries', 'geo.country'], ['deny_countries', 'geo.ip_country'], ['deny_countries', 'geo.billing_country'], ['deny_cards', 'custom.card_fingerprint']]), 'reject', 'Rejects requests naming a deny-listed user, email, device, IP, country (of the event, the IP or billing) or card.'),
        rule('amount_over_10000', 'Large amount', 'has(request.amount) && request.amount > 10000.0', 'flag', 'Queues amounts above 10,000 for review.')
      ],
      lists: Object.fromEntries(DEFAULT_LISTS.map(l => [l.alias, { ...l, items: [] }]))
    },
    ...defaultRiskSettings()
  }
}

/** Score >= 0.65 is medium risk (flag), >= 0.75 high (reject), else low (approve). */
export function defaultRiskSettings (): RiskSettings {
  return { thresholds: { ...DEFAULT_THRESHOLDS }, actions: { low: 'approve', medium: 'flag', high: 'reject' } }
}

/** The policy a ruleset version implies: its rules and its risk settings (the defaults when it has none). */
export function policyOf (ruleset: Ruleset): TenantPolicy {
  return { ruleset, ...(ruleset.risk ?? defaultRiskSettings()) }
}
