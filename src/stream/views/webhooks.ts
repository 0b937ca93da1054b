import type { Logger } from 'pino'
import type { EventLog } from '../eventlog/event-log.js'
import type { StateDb } from '../../stores/state-db.js'
import { deliveryIndexKey, deliveryViewKey, webhookKey } from '../../stores/webhooks.js'
import type { Delivery, WebhookRecord } from '../../domain/webhooks/types.js'
import { parseJson, TopicMaterializer } from '../topic-materializer.js'

/** Every instance's copy of the webhook endpoints (compacted `webhooks` topic). */
export function webhooksMaterializer (state: StateDb, log: EventLog, topic: string, originId: string, logger: Logger): TopicMaterializer<WebhookRecord, WebhookRecord> {
  return new TopicMaterializer<WebhookRecord, WebhookRecord>(state, log, topic, `webhooks-${originId}`, logger, {
    decode: parseJson,
    apply: async (change, _record, writes) => {
      const key = webhookKey({ tenant: change.tenant_id, mode: change.mode }, change.id)
      if (change.endpoint === null) writes.del(key)
      else writes.put(key, Buffer.from(JSON.stringify(change.endpoint)))
      return [[change.change_id, change]]
    }
  })
}

/**
 * Every instance's copy of delivery states (compacted `webhook-deliveries` topic), for listing and replay.
 * A delivery has one writer and all its states share a partition, so the latest record in log order wins: a
 * writer that crashed after publishing a state but before storing it publishes the same version again.
 */
export function deliveriesMaterializer (state: StateDb, log: EventLog, topic: string, originId: string, logger: Logger): TopicMaterializer<Delivery, Delivery> {
  return new TopicMaterializer<Delivery, Delivery>(state, log, topic, `deliveries-${originId}`, logger, {
    decode: parseJson,
    apply: async (d, _record, writes) => {
      const scope = { tenant: d.tenant_id, mode: d.mode }
      writes.put(deliveryViewKey(scope, d.endpoint_id, d.id), Buffer.from(JSON.stringify(d)))
      writes.put(deliveryIndexKey(scope, d.id), Buffer.from(d.endpoint_id))
      return [[`${d.id}@${d.version}`, d]]
    }
  })
}
