import type { Mode } from '../scope.js'
import type { EventType } from '../webhooks/types.js'
import type { LogRecord } from './log-record.js'

export interface DeliveryAttempt { at_ms: number, status_code: number | null, error: string | null, duration_ms: number }

/** One event for one endpoint: its attempts and what happens next. */
export interface Delivery {
  id: string
  tenant_id: string
  mode: Mode
  endpoint_id: string
  event_id: string
  event_type: EventType
  /** The exact body sent: the event envelope as it is on the events topic. */
  payload: string
  /** pending (next attempt at next_attempt_ms), succeeded, or failed (dead-lettered). */
  status: 'pending' | 'succeeded' | 'failed'
  attempts: DeliveryAttempt[]
  next_attempt_ms: number | null
  created_ms: number
  /** Set on a replay: the delivery it replays. */
  replay_of: string | null
  /** Increases with every change (a state re-published after a crash may repeat a version). */
  version: number
}

/** Keyed by delivery id, partitioned by endpoint (an endpoint's deliveries keep their order). */
export const deliveryRecord = (d: Delivery): LogRecord => ({ key: d.id, partitionKey: d.endpoint_id, value: Buffer.from(JSON.stringify(d)), headers: { tenant_id: d.tenant_id } })
