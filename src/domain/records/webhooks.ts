import type { Mode } from '../scope.js'
import type { WebhookEndpoint } from '../webhooks/types.js'
import type { LogRecord } from './log-record.js'

/** A record of the compacted `webhooks` topic (key tenant:mode:id); `endpoint` null once deleted. */
export interface WebhookRecord {
  tenant_id: string
  mode: Mode
  id: string
  endpoint: WebhookEndpoint | null
  change_id: string
  actor: string
}

export const webhookRecord = (r: WebhookRecord): LogRecord => ({ key: `${r.tenant_id}:${r.mode}:${r.id}`, value: Buffer.from(JSON.stringify(r)), headers: { tenant_id: r.tenant_id } })
