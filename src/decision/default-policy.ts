import { DEFAULT_THRESHOLDS } from './risk-level.js'
import type { TenantPolicy } from './types.js'

/** The policy a tenant starts with until it configures its own (deny lists empty, one amount threshold). */
export function defaultPolicy (): TenantPolicy {
  return {
    ruleset: {
      version: 'rs_default_1',
      rules: [
        { id: 'deny_list', kind: 'deny_list', action: 'reject' },
        { id: 'amount_over_10000', kind: 'amount_threshold', above: 10000, action: 'flag' }
      ],
      deny: {}
    },
    thresholds: { ...DEFAULT_THRESHOLDS },
    actions: { low: 'approve', medium: 'flag', high: 'reject' }
  }
}
