import { webhookDeliveriesTotal } from '../../src/stream/metrics.js'
import type { Logger } from 'pino'
import type { ErasedTenants } from '../../src/stream/middleware.js'
import type { AuditLog } from '../../src/stream/audit-log.js'
import type { EventLog } from '../../src/stream/eventlog/event-log.js'
import { newId } from '../../src/domain/ids.js'
import type { StateDb } from '../../src/stores/state-db.js'
import { getEndpoint } from '../../src/stores/webhooks.js'
import { nextAttemptAt } from '../../src/domain/webhooks/backoff.js'
import { dropEntryOps, dueEntries, forgetOps, getOwned, isCurrentEntry, saveOps, type DueEntry } from './retry-store.js'
import type { WebhookSender } from './http-sender.js'
import { SIGNATURE_HEADER, signatureHeader } from '../../src/domain/webhooks/signature.js'
import type { WebhookEndpoint } from '../../src/domain/webhooks/types.js'
import { type WebhookRecord, webhookRecord } from '../../src/domain/records/webhooks.js'
import type { Delivery, DeliveryAttempt } from '../../src/domain/records/webhook-deliveries.js'
import { deliveryRecord } from '../../src/domain/records/webhook-deliveries.js'
import { deadDeliveryRecord } from '../../src/domain/records/webhook-dead-letters.js'

export interface DispatcherDeps {
  state: StateDb
  log: EventLog
  topics: { webhooks: string, webhookDeliveries: string, webhookDeadLetters: string }
  send: WebhookSender
  audit: AuditLog
  logger: Logger
  clock: () => number
  backoffScale: number
  random?: () => number
  /** Deleted tenants: their deliveries are dropped, never attempted (stream/middleware.ts, ErasedTenants). */
  tenants?: ErasedTenants
}

/** What one attempt's result does to a delivery (pure): success, 410 (endpoint gone), retry later, or dead letter. */
export function afterAttempt (d: Delivery, attempt: DeliveryAttempt, random: number, scale: number): Delivery {
  const attempts = [...d.attempts, attempt]
  const ok = attempt.status_code !== null && attempt.status_code >= 200 && attempt.status_code < 300
  const base = { ...d, attempts, version: d.version + 1 }
  if (ok) return { ...base, status: 'succeeded', next_attempt_ms: null }
  const next = attempt.status_code === 410 ? null : nextAttemptAt(attempts.length, attempt.at_ms, random, scale)
  return next === null ? { ...base, status: 'failed', next_attempt_ms: null } : { ...base, status: 'pending', next_attempt_ms: next }
}

/** Secrets that sign at `nowMs`: the current one and, for 24 h after a rotation, the previous ones. */
export const signingSecrets = (e: WebhookEndpoint, nowMs: number) => e.secrets.filter(s => s.expires_ms === null || s.expires_ms > nowMs).map(s => s.secret)

/**
 * Attempts due deliveries of this process's retry store: signs the stored payload with every active secret,
 * POSTs it, records the attempt, publishes the new state on `webhook-deliveries` (then dead letters on their
 * topic) and stores it locally with its next due time. A crash between sending and storing repeats the attempt
 * (at-least-once, same event id).
 */
export class Dispatcher {
  private timer: NodeJS.Timeout | undefined
  private readonly inFlight = new Set<string>()
  private ticking = false
  private stopped = false

  constructor (private readonly deps: DispatcherDeps, private readonly concurrency = 32, private readonly tickMs = 50) {}

  start (): void {
    this.timer = setInterval(() => { void this.tick() }, this.tickMs)
  }

  async stop (): Promise<void> {
    this.stopped = true
    clearInterval(this.timer)
    while (this.inFlight.size > 0 || this.ticking) await new Promise(resolve => setTimeout(resolve, 10))
  }

  private async tick (): Promise<void> {
    if (this.ticking || this.stopped) return
    this.ticking = true
    try {
      const room = this.concurrency - this.inFlight.size
      if (room <= 0) return
      // The listing reflects the index when the scan started: an attempt that finished during the scan has
      // left `inFlight` with its old entry still listed here. attempt() re-reads the delivery before sending.
      for (const entry of await dueEntries(this.deps.state, this.deps.clock(), room + this.inFlight.size)) {
        const id = entry.id
        if (this.inFlight.has(id) || this.inFlight.size >= this.concurrency) continue
        this.inFlight.add(id)
        this.attempt(entry).catch(err => this.deps.logger.error({ err, delivery: id }, 'attempt failed to record')).finally(() => this.inFlight.delete(id))
      }
    } catch (err) {
      this.deps.logger.error({ err }, 'tick failed')
    } finally {
      this.ticking = false
    }
  }

  /**
   * Attempts the delivery of a due entry, if that entry still is the one its current state (latest attempt)
   * recorded and its time has come; a stale entry (read before the delivery moved on) is dropped instead.
   */
  private async attempt (entry: DueEntry): Promise<void> {
    const { state, clock } = this.deps
    const d = await getOwned(state, entry.id)
    if (!isCurrentEntry(d, entry)) {
      await state.committer.commit(dropEntryOps(entry))
      return
    }
    if (this.deps.tenants?.isErased(d.tenant_id) === true) {
      await state.committer.commit(forgetOps(d))
      return
    }
    const now = clock()
    if (d.next_attempt_ms > now) return
    const scope = { tenant: d.tenant_id, mode: d.mode }
    const endpoint = await getEndpoint(state, scope, d.endpoint_id)
    let next: Delivery
    if (endpoint === undefined || endpoint.status === 'disabled') {
      const reason = endpoint === undefined ? 'endpoint deleted' : `endpoint disabled${endpoint.disabled_reason === null ? '' : ` (${endpoint.disabled_reason})`}`
      next = { ...d, status: 'failed', next_attempt_ms: null, version: d.version + 1, attempts: [...d.attempts, { at_ms: now, status_code: null, error: reason, duration_ms: 0 }] }
    } else {
      const headers = { [SIGNATURE_HEADER]: signatureHeader(d.payload, signingSecrets(endpoint, now), Math.floor(now / 1000)) }
      const result = await this.deps.send(endpoint.url, d.payload, headers)
      // What exactly failed (addresses, socket errors) is for operators: the attempt records a neutral category.
      if (result.detail !== undefined) this.deps.logger.warn({ delivery: d.id, endpoint: endpoint.id, tenant: d.tenant_id, error: result.error, detail: result.detail }, 'attempt failed')
      const error = result.error ?? (result.status_code !== null && (result.status_code < 200 || result.status_code >= 300) ? `HTTP ${result.status_code}` : null)
      next = afterAttempt(d, { at_ms: now, status_code: result.status_code, error, duration_ms: result.duration_ms }, (this.deps.random ?? Math.random)(), this.deps.backoffScale)
      if (result.status_code === 410) await this.disable(endpoint, now)
    }
    await this.record(next, d)
    webhookDeliveriesTotal.inc({ outcome: next.status === 'pending' ? 'retrying' : next.status, attempt: String(next.attempts.length) })
  }

  private async record (next: Delivery, previous: Delivery): Promise<void> {
    const { log, topics, state } = this.deps
    await log.append(topics.webhookDeliveries, [deliveryRecord(next)])
    if (next.status === 'failed') await log.append(topics.webhookDeadLetters, [deadDeliveryRecord(next)])
    await state.committer.commit(saveOps(next, previous))
  }

  /** A 410 Gone: the receiver says the endpoint no longer exists; stop sending to it. */
  private async disable (e: WebhookEndpoint, nowMs: number): Promise<void> {
    const endpoint: WebhookEndpoint = { ...e, status: 'disabled', disabled_reason: 'the receiver answered 410 Gone', updated_ms: nowMs }
    const record: WebhookRecord = { tenant_id: e.tenant_id, mode: e.mode, id: e.id, endpoint, change_id: newId('chg', nowMs), actor: 'webhook-delivery' }
    await this.deps.log.append(this.deps.topics.webhooks, [webhookRecord(record)])
    await this.deps.audit.record({ tenant_id: e.tenant_id, mode: e.mode, actor: 'webhook-delivery', action: 'webhook_endpoint.disabled', object_type: 'webhook_endpoint', object_id: e.id, trace_id: null, data: { reason: endpoint.disabled_reason } })
  }
}
