import { activeVersions, boundedRule, decisionsTotal, ruleMatchesTotal } from '../stream/metrics.js'
import type { TransactionRecord } from '../domain/records/decisions.js'

const current = new Map<string, string>()
/** Moves the `1` of fds_active_version_info to this version of its kind and mode. */
function activeVersion (kind: 'model' | 'ruleset', mode: string, version: string): void {
  const key = `${kind}:${mode}`
  const before = current.get(key)
  if (before === version) return
  if (before !== undefined) activeVersions.remove({ kind, mode, version: before })
  current.set(key, version)
  activeVersions.set({ kind, mode, version }, 1)
}

/** Counts answered decisions: by action, risk level and mode; their rule matches; the versions they used. */
export function observeDecisions (records: readonly TransactionRecord[]): void {
  for (const r of records) {
    const mode = r.livemode ? 'live' : 'test'
    decisionsTotal.inc({ action: r.decision.action, risk_level: r.decision.risk_level, mode })
    for (const id of r.decision.rules) ruleMatchesTotal.inc({ rule: boundedRule(id), mode: 'enforce' })
    for (const id of r.decision.shadow?.rules ?? []) ruleMatchesTotal.inc({ rule: boundedRule(id), mode: 'shadow' })
    activeVersion('model', mode, r.model_version)
    activeVersion('ruleset', mode, r.ruleset_version)
  }
}
