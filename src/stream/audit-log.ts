import type { EventLog } from './eventlog/event-log.js'
import { appendConfirmed } from './confirmation.js'
import { newId } from '../domain/ids.js'
import { type AuditEntry, type AuditInput, auditRecord } from '../domain/records/audit.js'
export class AuditLog {
  constructor (private readonly log: EventLog, private readonly topic: string, private readonly clock: () => number) {}

  async record (input: AuditInput): Promise<void> {
    const at = this.clock()
    const entry: AuditEntry = { id: newId('aud', at), at_ms: at, ...input }
    await appendConfirmed(this.log, this.topic, [auditRecord(entry)])
  }
}
