import type { Mode } from '../scope.js'
import type { WebhookEndpoint } from '../webhooks/types.js'

/** A record of the compacted `webhooks` topic (key tenant:mode:id); `endpoint` null once deleted. */
export interface WebhookRecord {
  tenant_id: string
  mode: Mode
  id: string
  endpoint: WebhookEndpoint | null
  change_id: string
  actor: string
}
