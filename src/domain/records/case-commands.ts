import type { Case, CaseOutcome, CaseSubjects } from '../cases/types.js'
import type { LogRecord } from './log-record.js'
import type { Mode } from '../scope.js'
import type { CaseTransaction } from '../cases/transaction-summary.js'

/**
 * Key of a case's records on `case-commands` and `cases`: both topics have the same partition count, so the
 * case's commands and states live in the partition that owns its id, and its writer is that partition's consumer.
 */
export const caseRecordKey = (c: Pick<Case, 'tenant_id' | 'mode' | 'id'>) => `${c.tenant_id}:${c.mode}:${c.id}`

export function commandRecord (cmd: CaseCommand): LogRecord {
  return { key: caseRecordKey({ tenant_id: cmd.tenant_id, mode: cmd.mode, id: cmd.case_id }), value: Buffer.from(JSON.stringify(cmd)), headers: { tenant_id: cmd.tenant_id } }
}

/** A `flag` decision's case: id derived from the trace id, so opening it again is a no-op (idempotent by trace_id). */
export function caseIdForTrace (traceId: string): string {
  return 'case_' + traceId.slice(traceId.indexOf('_') + 1)
}

interface CommandBase { id: string, tenant_id: string, mode: Mode, case_id: string, at_ms: number, actor: string, actor_name?: string }
export type CaseCommand = CommandBase & (
  | { type: 'open', trace_id: string | null, reason: string, opened_by: 'rule' | 'analyst', rules: string[], subjects: CaseSubjects, score?: number | null, transaction?: CaseTransaction | null }
  | { type: 'assign', assignee: string }
  | { type: 'note', body: string }
  | { type: 'disposition', outcome: CaseOutcome, reason: string, analyst: string, demote_for_ms: number }
)
