import type { Case, CaseEntry } from '../domain/cases/types.js'
import type { CaseTransaction } from '../domain/cases/transaction-summary.js'
import { describeSignals } from '../domain/signals-described.js'
import type { Core } from './core.js'
import { ApiError } from './errors.js'
import { publishChange } from './publish-change.js'
import { commandRecord, type CaseCommand } from '../domain/records/case-commands.js'

/** Default time a `safe` outcome demotes later flags of the case's subjects (30 days). */
export const DEFAULT_SAFE_DEMOTION_HOURS = 720

const seconds = (ms: number) => Math.floor(ms / 1000)

function historyEntry ({ command_id: _id, at_ms: at, demote_until_ms: until, ...e }: CaseEntry) {
  return { ...e, at: seconds(at), ...(until === undefined ? {} : { demote_until: seconds(until) }) }
}

/** The case's transaction as the API shows it: its signals with what they mean. */
export const transactionResource = (t: CaseTransaction) => ({ ...t, signals: describeSignals(t.signals) })

/**
 * The case resource. Lists carry the transaction (what the queue shows at a glance); one case carries its whole
 * history (the trail: opened, assigned, notes, disposition, each with who and when) and its notes.
 */
export function caseResource (c: Case, withHistory = true, transaction: CaseTransaction | null = c.transaction ?? null) {
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
    transaction: transaction === null ? null : transactionResource(transaction),
    created: seconds(c.created_ms),
    updated: seconds(c.updated_ms),
    ...(withHistory
      ? {
          history: c.history.map(historyEntry),
          notes: c.history.filter(e => e.type === 'noted').map(e => ({ id: e.command_id.replace(/^cmd_/, 'note_'), body: e.body!, author: e.actor, author_name: e.actor_name ?? null, created: seconds(e.at_ms) }))
        }
      : {})
  }
}

/** What sending a case command needs. */
export type CaseCommandDeps = Pick<Core, 'audit' | 'cases' | 'log' | 'topics'>

/** Sends a command to the case's writer and turns its outcome into the response (or the error it earned); audits it. */
export async function runCaseCommand (core: CaseCommandDeps, cmd: CaseCommand, requestId: string) {
  const outcome = await publishChange(core.log, core.topics.caseCommands, core.cases, cmd.id, commandRecord(cmd))
  if (!outcome.accepted) {
    const e = outcome.error!
    throw new ApiError(e.code, e.message, e.code === 'resource_missing' ? 'id' : undefined)
  }
  const c = outcome.case!
  const { id: _id, tenant_id: tenant, mode, case_id: caseId, at_ms: _at, actor, type, ...rest } = cmd
  // The audit entry says what changed; the transaction a case opens with is the decision's, audited with it.
  const { transaction: _t, ...data } = rest as typeof rest & { transaction?: unknown }
  await core.audit.record({ tenant_id: tenant, mode, actor, action: `case.${type}`, object_type: 'case', object_id: caseId, trace_id: requestId, subject_trace_id: c.trace_id, data })
  return caseResource(c)
}
