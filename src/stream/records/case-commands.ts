import type { LogRecord } from '../eventlog/event-log.js'
import type { Case, CaseCommand, CaseRecord } from '../../domain/cases/types.js'

/**
 * Key of a case's records on `case-commands` and `cases`: both topics have the same partition count, so the
 * case's commands and states live in the partition that owns its id, and its writer is that partition's consumer.
 */
export const caseRecordKey = (c: Pick<Case, 'tenant_id' | 'mode' | 'id'>) => `${c.tenant_id}:${c.mode}:${c.id}`

export function commandRecord (cmd: CaseCommand): LogRecord {
  return { key: caseRecordKey({ tenant_id: cmd.tenant_id, mode: cmd.mode, id: cmd.case_id }), value: Buffer.from(JSON.stringify(cmd)) }
}

export function caseStateRecord (cmd: CaseCommand, record: CaseRecord): LogRecord {
  return { key: caseRecordKey({ tenant_id: cmd.tenant_id, mode: cmd.mode, id: cmd.case_id }), value: Buffer.from(JSON.stringify(record)) }
}

/** A `flag` decision's case: id derived from the trace id, so opening it again is a no-op (idempotent by trace_id). */
export function caseIdForTrace (traceId: string): string {
  return 'case_' + traceId.slice(traceId.indexOf('_') + 1)
}
