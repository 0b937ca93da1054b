import type { App } from '../../src/app/app.js'
import { deliveryRecord, type Delivery } from '../../src/domain/records/webhook-deliveries.js'
import { deliveryIdFor } from '../../src/domain/webhooks/types.js'

/**
 * `count` deliveries of an endpoint as the delivery process would have published them on `webhook-deliveries`
 * after their last attempt: `status(n)` decides each one's fate (failed: 12 attempts answered HTTP 500;
 * succeeded: one 200; pending: one 500 and a next attempt). Their events are `case.created` events one minute
 * apart, oldest first, ending `endMs`; the payload is the envelope a receiver would get.
 */
export async function seedDeliveries (app: App, tenant: string, endpointId: string, count: number, status: (n: number) => Delivery['status'] = () => 'failed', endMs = Date.now()): Promise<Delivery[]> {
  const deliveries = Array.from({ length: count }, (_, n) => {
    const at = endMs - (count - n) * 60_000
    const created = Math.floor(at / 1000)
    const event = { id: `evt_seed_${endpointId}_${n}`, type: 'case.created' as const, created, livemode: false, data: { case_id: `case_seed_${n}`, trace_id: `trc_seed_${n}`, reason: 'Flagged' } }
    const fate = status(n)
    const attempts = fate === 'succeeded'
      ? [{ at_ms: at + 50, status_code: 200, error: null, duration_ms: 40 }]
      : Array.from({ length: fate === 'failed' ? 12 : 1 }, (_, i) => ({ at_ms: at + 50 + i * 1000, status_code: 500, error: 'HTTP 500', duration_ms: 30 }))
    const d: Delivery = {
      id: deliveryIdFor(event, endpointId), tenant_id: tenant, mode: 'test', endpoint_id: endpointId, event_id: event.id, event_type: event.type,
      payload: JSON.stringify(event), status: fate, attempts, next_attempt_ms: fate === 'pending' ? endMs + 3_600_000 : null, created_ms: at, replay_of: null, version: attempts.length + 1
    }
    return d
  })
  for (let from = 0; from < deliveries.length; from += 500) await app.log.append(app.topics.webhookDeliveries, deliveries.slice(from, from + 500).map(deliveryRecord))
  await app.deliveries.catchUp()
  return deliveries
}
