import type { Case } from '../domain/cases/types.js'
import type { Core } from './core.js'
import { ApiError } from './errors.js'
import { publishChange } from './publish-change.js'
import { commandRecord, type CaseCommand } from '../domain/records/case-commands.js'

/** Default time a `safe` outcome demotes later flags of the case's subjects (30 days). */
export const DEFAULT_SAFE_DEMOTION_HOURS = 720

export function caseResource (c: Case, withHistory = true) {
  return {
    object: 'case',
    id: c.id,
    livemode: c.mode === 'live',
    trace_id: c.trace_id,
    status: c.status,
    outcome: c.outcome,
    assignee: c.assignee,
    reason: c.reason,
    opened_by: c.opened_by,
    rules: c.rules,
    score: c.score ?? null,
    subjects: c.subjects,
    created: Math.floor(c.created_ms / 1000),
    updated: Math.floor(c.updated_ms / 1000),
    ...(withHistory
      ? { history: c.history.map(({ command_id: _id, at_ms: at, demote_until_ms: until, ...e }) => ({ ...e, at: Math.floor(at / 1000), ...(until === undefined ? {} : { demote_until: Math.floor(until / 1000) }) })) }
      : {})
  }
}

/** Sends a command to the case's writer and turns its outcome into the response (or the error it earned); audits it. */
/** What sending a case command needs. */
export type CaseCommandDeps = Pick<Core, 'audit' | 'cases' | 'log' | 'topics'>

export async function runCaseCommand (core: CaseCommandDeps, cmd: CaseCommand, requestId: string) {
  const outcome = await publishChange(core.log, core.topics.caseCommands, core.cases, cmd.id, commandRecord(cmd))
  if (!outcome.accepted) {
    const e = outcome.error!
    throw new ApiError(e.code, e.message, e.code === 'resource_missing' ? 'id' : undefined)
  }
  const c = outcome.case!
  const { id: _id, tenant_id: tenant, mode, case_id: caseId, at_ms: _at, actor, type, ...data } = cmd
  await core.audit.record({ tenant_id: tenant, mode, actor, action: `case.${type}`, object_type: 'case', object_id: caseId, trace_id: requestId, subject_trace_id: c.trace_id, data })
  return caseResource(c)
}
