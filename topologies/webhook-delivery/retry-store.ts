import { scan, type WriteOp } from '../../src/stores/rocks.js'
import { TAG } from '../../src/stores/keys.js'
import { namedStore } from '../../src/stores/named-store.js'
import type { StateDb } from '../../src/stores/state-db.js'
import type { Delivery } from '../../src/domain/records/webhook-deliveries.js'

/**
 * The delivery process's own retry state, durable in its local RocksDB: every delivery it accepted, and a
 * due index (next attempt time, delivery id) the dispatcher scans. A restart resumes from here.
 */
export const DELIVERIES = { ...namedStore('webhook-delivery.deliveries', TAG.deliveryOwned), tenantOf: (value: Buffer) => (JSON.parse(value.toString()) as Delivery).tenant_id }
export const DUE_INDEX = namedStore('webhook-delivery.due-index', TAG.deliveryDue)

export const ownedKey = (id: string) => DELIVERIES.key(id)
const dueKey = (atMs: number, id: string) => DUE_INDEX.key(String(atMs).padStart(15, '0'), id)

export function saveOps (next: Delivery, previous: Delivery | undefined): WriteOp[] {
  const ops: WriteOp[] = [{ type: 'put', key: ownedKey(next.id), value: Buffer.from(JSON.stringify(next)) }]
  if (previous?.next_attempt_ms != null && previous.next_attempt_ms !== next.next_attempt_ms) ops.push({ type: 'del', key: dueKey(previous.next_attempt_ms, previous.id) })
  if (next.status === 'pending' && next.next_attempt_ms !== null) ops.push({ type: 'put', key: dueKey(next.next_attempt_ms, next.id), value: Buffer.alloc(0) })
  return ops
}

export async function getOwned (state: StateDb, id: string): Promise<Delivery | undefined> {
  const raw = await state.get(ownedKey(id))
  return raw === undefined ? undefined : JSON.parse(raw.toString()) as Delivery
}

/** An entry of the due index: a delivery and the attempt time the entry was written for. */
export interface DueEntry { id: string, dueMs: number }

/**
 * Entries of the due index at or before `nowMs`, earliest first. The scan spans several turns of the event loop
 * and reads the index as it was when it started: an entry may be stale by the time this resolves (its delivery
 * was attempted and moved on meanwhile). `isCurrentEntry` tells whether one still is the delivery's next attempt.
 */
export async function dueEntries (state: StateDb, nowMs: number, limit: number): Promise<DueEntry[]> {
  const gte = DUE_INDEX.key('')
  const lt = DUE_INDEX.key(String(nowMs + 1).padStart(15, '0'))
  const entries: DueEntry[] = []
  for await (const [key] of scan(state.db, gte, lt, { limit })) {
    const [, at, id] = key.toString().split('\u0000')
    entries.push({ id: id!, dueMs: Number(at) })
  }
  return entries
}

/**
 * Whether a due entry is the one the delivery's current state (as its latest attempt recorded it) asks for:
 * the delivery is pending and next attempted at the entry's time. Any other entry is stale.
 */
export const isCurrentEntry = (d: Delivery | undefined, entry: DueEntry): d is Delivery & { next_attempt_ms: number } =>
  d !== undefined && d.status === 'pending' && d.next_attempt_ms === entry.dueMs

/** Removes a stale due entry (never the current one: see isCurrentEntry). */
export const dropEntryOps = (entry: DueEntry): WriteOp[] => [{ type: 'del', key: dueKey(entry.dueMs, entry.id) }]

/** A delivery of a deleted tenant, dropped whole: its state and its entry in the due index. */
export const forgetOps = (d: Delivery): WriteOp[] => [{ type: 'del', key: ownedKey(d.id) }, ...(d.next_attempt_ms === null ? [] : [{ type: 'del' as const, key: dueKey(d.next_attempt_ms, d.id) }])]
