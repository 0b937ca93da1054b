/** An audit entry as GET /v1/audit answers it (docs/api.md). */
export interface AuditEntry { id: string, created: number, actor: string, action: string, data?: Record<string, unknown> }

const text = (v: unknown) => typeof v === 'string' && v !== '' ? v : undefined

/**
 * One audit entry in words: what was done, by whom (a user's name beside the id when the change recorded it),
 * and what it said: the outcome and reason of a disposition, the assignee, a note.
 */
export function auditLine (e: AuditEntry): string {
  const d = e.data ?? {}
  const name = text(d.actor_name)
  const details = [
    text(d.outcome) !== undefined ? `outcome ${text(d.outcome)!}` : undefined,
    text(d.assignee) !== undefined ? `to ${text(d.assignee)!}` : undefined,
    text(d.reason) !== undefined ? `reason \u201c${text(d.reason)!}\u201d` : undefined,
    text(d.body) !== undefined ? `\u201c${text(d.body)!}\u201d` : undefined
  ].filter(x => x !== undefined)
  return `${e.action} by ${name !== undefined ? `${name} (${e.actor})` : e.actor}${details.length > 0 ? `: ${details.join(', ')}` : ''}`
}
