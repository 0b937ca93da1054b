import type { WebhookEndpoint } from '../domain/webhooks/types.js'
import { endpointHealth, HEALTH_WINDOW, type EndpointHealth } from '../domain/webhooks/health.js'
import { scan, scanJson } from './rocks.js'
import { prefixRange, rangeAfter, stateKey, TAG } from './keys.js'
import type { StateDb } from './state-db.js'
import type { Scope } from '../domain/scope.js'
import type { StoreWrites } from './writes.js'
import type { WebhookRecord } from '../domain/records/webhooks.js'
import type { Delivery } from '../domain/records/webhook-deliveries.js'

export const webhookKey = (scope: Scope, id: string) => stateKey(TAG.webhook, scope.tenant, scope.mode, id)
export const deliveryViewKey = (scope: Scope, endpointId: string, id: string) => stateKey(TAG.deliveryView, scope.tenant, scope.mode, endpointId, id)
export const deliveryIndexKey = (scope: Scope, id: string) => stateKey(TAG.deliveryIndex, scope.tenant, scope.mode, id)
/**
 * The dead letters of an endpoint not replayed yet, by delivery id (what "replay all failed" replays). It lives
 * beside the id index, under a part no delivery id takes (ids start `dlv_`).
 */
export const failedDeliveryKey = (scope: Scope, endpointId: string, id: string) => stateKey(TAG.deliveryIndex, scope.tenant, scope.mode, 'failed', endpointId, id)

const parse = <T>(raw: Buffer | undefined): T | undefined => raw === undefined ? undefined : JSON.parse(raw.toString()) as T

export async function getEndpoint (state: StateDb, scope: Scope, id: string): Promise<WebhookEndpoint | undefined> {
  return parse(await state.get(webhookKey(scope, id)))
}

/** Endpoints of a tenant and mode in id order, after `startingAfter` when given. */
export async function * scanEndpoints (state: StateDb, scope: Scope, startingAfter?: string): AsyncGenerator<WebhookEndpoint> {
  const [from, lt] = rangeAfter(prefixRange(TAG.webhook, scope.tenant, scope.mode), startingAfter === undefined ? undefined : webhookKey(scope, startingAfter))
  yield * scanJson<WebhookEndpoint>(state.db, from, lt)
}

export async function getDeliveryView (state: StateDb, scope: Scope, id: string): Promise<Delivery | undefined> {
  const endpointId = (await state.get(deliveryIndexKey(scope, id)))?.toString()
  return endpointId === undefined ? undefined : parse(await state.get(deliveryViewKey(scope, endpointId, id)))
}

/** Deliveries of one endpoint in id (creation) order, after `startingAfter` when given. */
export async function * scanDeliveries (state: StateDb, scope: Scope, endpointId: string, startingAfter?: string): AsyncGenerator<Delivery> {
  const [from, lt] = rangeAfter(prefixRange(TAG.deliveryView, scope.tenant, scope.mode, endpointId), startingAfter === undefined ? undefined : deliveryViewKey(scope, endpointId, startingAfter))
  yield * scanJson<Delivery>(state.db, from, lt)
}

/** Deliveries of one endpoint newest first (reverse id order), older than `olderThan` when given. */
export async function * scanDeliveriesNewestFirst (state: StateDb, scope: Scope, endpointId: string, olderThan?: string, limit?: number): AsyncGenerator<Delivery> {
  const [from, end] = prefixRange(TAG.deliveryView, scope.tenant, scope.mode, endpointId)
  const lt = olderThan === undefined ? end : deliveryViewKey(scope, endpointId, olderThan)
  for await (const [, value] of scan(state.db, from, lt, { reverse: true, limit })) yield JSON.parse(value.toString()) as Delivery
}

/** An endpoint's health on its newest HEALTH_WINDOW deliveries (one bounded reverse scan). */
export async function endpointHealthOf (state: StateDb, scope: Scope, endpointId: string): Promise<EndpointHealth> {
  const newest: Delivery[] = []
  for await (const d of scanDeliveriesNewestFirst(state, scope, endpointId, undefined, HEALTH_WINDOW)) newest.push(d)
  return endpointHealth(newest)
}

/** Ids of an endpoint's dead letters not replayed yet, newest first, at most `limit`. */
export async function failedUnreplayedIds (state: StateDb, scope: Scope, endpointId: string, limit: number): Promise<string[]> {
  const [from, lt] = prefixRange(TAG.deliveryIndex, scope.tenant, scope.mode, 'failed', endpointId)
  const ids: string[] = []
  for await (const [key] of scan(state.db, from, lt, { reverse: true, limit })) ids.push(key.subarray(from.length).toString())
  return ids
}

/** Applies an endpoint change of the compacted `webhooks` topic (null endpoint: deleted). */
export function applyWebhookChange (change: WebhookRecord, writes: StoreWrites): void {
  const key = webhookKey({ tenant: change.tenant_id, mode: change.mode }, change.id)
  if (change.endpoint === null) writes.del(key)
  else writes.put(key, Buffer.from(JSON.stringify(change.endpoint)))
}

/**
 * Applies a delivery state of the compacted `webhook-deliveries` topic, for listing and replay, and keeps the index
 * of dead letters not replayed yet (deliveries dead-lettered before that index existed are not in it). A delivery has
 * one writer and all its states share a partition, so the latest record in log order wins: a writer that
 * crashed after publishing a state but before storing it publishes the same version again. A replay's first
 * state (version 0, queued) is published by the API before the replayed event is appended, so it precedes every
 * state the delivery process publishes for it.
 */
export function applyDeliveryState (d: Delivery, writes: StoreWrites): void {
  const scope = { tenant: d.tenant_id, mode: d.mode }
  writes.put(deliveryViewKey(scope, d.endpoint_id, d.id), Buffer.from(JSON.stringify(d)))
  writes.put(deliveryIndexKey(scope, d.id), Buffer.from(d.endpoint_id))
  if (d.status === 'failed') writes.put(failedDeliveryKey(scope, d.endpoint_id, d.id), Buffer.alloc(0))
  // Replayed: no longer waiting for a replay (its replay, if it fails too, takes its place).
  if (d.replay_of !== null) writes.del(failedDeliveryKey(scope, d.endpoint_id, d.replay_of))
}
