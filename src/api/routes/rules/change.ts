import type { TenantDirectory } from '../../../stores/tenants.js'
import type { Ruleset } from '../../../domain/decision/types.js'
import { ChangeRejected, type ControlPlane, type ItemChange } from '../../../stream/control-plane.js'
import type { AuditLog } from '../../../stream/audit-log.js'
import { principalScope, type Principal } from '../../../services/auth.js'
import { ApiError } from '../../../services/errors.js'
import type { RulesetVersion } from '../../../domain/records/rulesets.js'

/** What the rule routes read: the active ruleset of the caller's tenant and mode, and its versions. */
export type RulesetReader = Pick<ControlPlane, 'activeRuleset' | 'history'>

/** What a route that changes a ruleset needs (the options of its plugin). */
export interface RulesetChangeDeps {
  control: RulesetReader & Pick<ControlPlane, 'propose' | 'changeListItems'>
  audit: Pick<AuditLog, 'record'>
  clock: () => number
  /** The tenants' count quotas (rules, list items). */
  tenants: Pick<TenantDirectory, 'quotaOf'>
}

/** Ruleset changes may lose a race with another instance several times in a row: 409, retry. */
async function proposing<T> (run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (err) {
    if (err instanceof ChangeRejected) throw new ApiError('conflict', err.message)
    throw err
  }
}

/**
 * One ruleset change as a new version, audited with the request that made it (and `auditData`, what the entry
 * should tell beyond the version, or a function giving it once the edit has run). `edit` is one of the pure edits of
 * src/domain/rules/ruleset-edits.ts; the control plane applies it to the active ruleset (again if it lost a race).
 */
export async function changeRuleset (
  deps: RulesetChangeDeps, p: Principal, requestId: string, describe: RulesetVersion['change'], edit: (ruleset: Ruleset) => Ruleset,
  auditData: Record<string, unknown> | (() => Record<string, unknown>) = {}
): Promise<RulesetVersion> {
  const version = await proposing(() => deps.control.propose(principalScope(p), p.actor, describe, edit, deps.clock()))
  const { type, ...ids } = describe
  await deps.audit.record({
    tenant_id: p.tenant, mode: p.mode, actor: p.actor, action: type, object_type: type.split('.')[0]!, object_id: String(Object.values(ids)[0] ?? type.split('.')[0]),
    trace_id: requestId, data: { ...(typeof auditData === 'function' ? auditData() : auditData), ruleset_version: version.ruleset.version }
  })
  return version
}

/** One list item added or removed as its own change (no ruleset version), audited; false when the list was gone. */
export async function changeListItem (deps: RulesetChangeDeps, p: Principal, requestId: string, change: ItemChange): Promise<boolean> {
  const [applied] = await deps.control.changeListItems(principalScope(p), p.actor, [change], deps.clock())
  if (applied === true) {
    await deps.audit.record({
      tenant_id: p.tenant, mode: p.mode, actor: p.actor, action: change.op === 'add' ? 'list.item_added' : 'list.item_removed', object_type: 'list', object_id: change.alias,
      trace_id: requestId, data: { value: change.value }
    })
  }
  return applied === true
}
