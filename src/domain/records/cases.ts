import type { Case } from '../cases/types.js'
import type { LogRecord } from './log-record.js'
import { caseRecordKey, type CaseCommand } from './case-commands.js'

export function caseStateRecord (cmd: CaseCommand, record: CaseRecord): LogRecord {
  return { key: caseRecordKey({ tenant_id: cmd.tenant_id, mode: cmd.mode, id: cmd.case_id }), value: Buffer.from(JSON.stringify(record)), headers: { tenant_id: cmd.tenant_id } }
}

export interface CommandError { status: 404 | 409, code: 'resource_missing' | 'resource_exists' | 'case_closed' | 'invalid_transition' | 'case_note_limit' | 'case_history_full', message: string }

/** What the case writer publishes on the `cases` topic: the case after a command, and the command's result. */
export interface CaseRecord {
  case: Case | null
  command: { id: string, accepted: boolean, error?: CommandError }
}
