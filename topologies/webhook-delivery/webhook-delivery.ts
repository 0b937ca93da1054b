import { readFileSync } from 'node:fs'
import type { Processor } from '../../src/stream/processor.js'
import { scanEndpoints } from '../../src/stores/webhooks.js'
import { DELIVERIES, DUE_INDEX, ownedKey, saveOps } from './retry-store.js'
import { Dispatcher } from './dispatcher.js'
import { httpSender } from './http-sender.js'
import { egressPolicy } from '../../src/domain/webhooks/egress-policy.js'
import { deliveryIdFor, type WebhookEndpoint } from '../../src/domain/webhooks/types.js'
import type { Topology } from '../../src/stream/topology.js'
import { type ServiceEvent, parseEvent, REPLAY_HEADERS } from '../../src/domain/records/events.js'
import type { Delivery } from '../../src/domain/records/webhook-deliveries.js'
import { scopeId } from '../../src/domain/scope.js'
import type { WebhookDeliverySettings } from './settings.js'

/**
 * Webhook delivery: consumes `events` (one consumer group, partitions shared between delivery processes),
 * turns each event into one delivery per subscribed endpoint of the same tenant and mode, stored in this
 * process's retry store with the partition checkpoint in the same batch, and runs the dispatcher over that store.
 */
export const webhookDelivery: Topology = {
  name: 'webhook-delivery',
  description: 'delivers events to webhook endpoints: HMAC-signed, retried with jittered backoff, dead-lettered',
  stores: [DELIVERIES, DUE_INDEX],
  build (ctx) {
    const { state, clock } = ctx
    const config: WebhookDeliverySettings = ctx.config
    // A batch reads each tenant and mode's endpoints once (an iterator over the store per event cost 3 % of the
    // main thread under load): the view caught up before the batch, so they do not change during it.
    const intake: Processor<ServiceEvent, Map<string, WebhookEndpoint[]>> = {
      group: `${ctx.topics.prefix}webhook-delivery`,
      topics: [ctx.topics.events],
      checkpoint: ['webhook-delivery'],
      // An endpoint registered just before an event must already be known here.
      beforeBatch: () => ctx.webhooks.catchUp(),
      local: () => new Map(),
      decode: record => parseEvent(record.value),
      async process (event, record, { writes, local }) {
        const tenant = record.headers.tenant_id
        if (tenant === undefined) return
        const replayEndpoint = record.headers[REPLAY_HEADERS.endpoint]
        const scope = { tenant, mode: event.livemode ? 'live' as const : 'test' as const }
        const scopeKey = scopeId(scope)
        let endpoints = local.get(scopeKey)
        if (endpoints === undefined) {
          endpoints = []
          for await (const endpoint of scanEndpoints(state, scope)) endpoints.push(endpoint)
          local.set(scopeKey, endpoints)
        }
        for (const endpoint of endpoints) {
          if (endpoint.status !== 'enabled' || !endpoint.events.includes(event.type)) continue
          if (replayEndpoint !== undefined && endpoint.id !== replayEndpoint) continue
          const id = deliveryIdFor(event, endpoint.id, record.headers[REPLAY_HEADERS.id])
          if (await writes.get(ownedKey(id)) !== undefined) continue
          const now = clock()
          const delivery: Delivery = {
            id, tenant_id: tenant, mode: scope.mode, endpoint_id: endpoint.id, event_id: event.id, event_type: event.type, payload: record.value.toString(),
            status: 'pending', attempts: [], next_attempt_ms: now, created_ms: now, replay_of: record.headers[REPLAY_HEADERS.of] ?? null, version: 1
          }
          // The state and its due entry come from the one function the dispatcher records attempts with.
          writes.apply(saveOps(delivery, undefined))
        }
      }
    }
    const dispatcher = new Dispatcher({
      state,
      log: ctx.log,
      topics: ctx.topics,
      send: httpSender({
        timeoutMs: config.webhookTimeoutMs,
        extraCa: config.webhookCaFile === undefined ? undefined : readFileSync(config.webhookCaFile, 'utf8'),
        policy: egressPolicy(config.webhookEgressAllow)
      }),
      audit: ctx.audit,
      logger: ctx.logger.child({ component: 'dispatcher' }),
      clock,
      backoffScale: config.webhookBackoffScale,
      tenants: ctx.tenants
    })
    return { processors: [intake], services: [dispatcher] }
  }
}
