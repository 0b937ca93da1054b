import { define, listOf } from './named.js'
import { livemode, object, str, time } from './fields.js'

export const AuditEntry = define('AuditEntry', {
  description: 'One change, with who made it and under which request.',
  type: 'object',
  required: ['object', 'id', 'livemode', 'action', 'actor', 'object_type', 'object_id', 'trace_id', 'subject_trace_id', 'created', 'data'],
  properties: {
    object: object('audit_entry'),
    id: str(),
    livemode,
    action: str('What was done, e.g. rule.upserted, case.disposition, key.rotated.'),
    actor: str(),
    object_type: str(),
    object_id: str(),
    trace_id: { type: ['string', 'null'], description: 'The request that made the change.' },
    subject_trace_id: { type: ['string', 'null'], description: 'The decision the change was about, if any.' },
    created: time(),
    data: { type: 'object', additionalProperties: true, description: 'The change\u2019s parameters.' }
  }
})

export const AuditEntryList = listOf(AuditEntry)
