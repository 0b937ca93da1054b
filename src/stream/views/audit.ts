import type { Logger } from 'pino'
import { type AuditEntry, auditByObjectKey, auditByTraceKey, auditKey } from '../../stores/audit.js'
import type { EventLog } from '../eventlog/event-log.js'
import type { StateDb } from '../../stores/state-db.js'
import { parseJson, TopicMaterializer } from '../topic-materializer.js'

const orderOf = (e: AuditEntry, partition: number, offset: number) => `${String(e.at_ms).padStart(15, '0')}:${partition}:${String(offset).padStart(15, '0')}`

export function auditMaterializer (state: StateDb, log: EventLog, topic: string, originId: string, logger: Logger): TopicMaterializer<AuditEntry, AuditEntry> {
  return new TopicMaterializer<AuditEntry, AuditEntry>(state, log, topic, `audit-${originId}`, logger, {
    decode: parseJson,
    apply: async (e, record, writes) => {
      const order = orderOf(e, record.partition, record.offset)
      writes.put(auditKey(e.tenant_id, e.mode, e.id), Buffer.from(JSON.stringify(e)))
      writes.put(auditByObjectKey(e.tenant_id, e.mode, e.object_id, order), Buffer.from(e.id))
      for (const trace of new Set([e.trace_id, e.subject_trace_id])) {
        if (trace != null) writes.put(auditByTraceKey(e.tenant_id, e.mode, trace, order), Buffer.from(e.id))
      }
      return [[e.id, e]]
    }
  })
}
