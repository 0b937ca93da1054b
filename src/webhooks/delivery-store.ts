import { scan, type WriteOp } from '../storage/rocks.js'
import { stateKey, TAG } from '../state/keys.js'
import type { StateDb } from '../state/state-db.js'
import type { Delivery } from './types.js'

/**
 * The delivery process's own retry state, durable in its local RocksDB: every delivery it accepted, and a
 * due index (next attempt time, delivery id) the dispatcher scans. A restart resumes from here.
 */
export const ownedKey = (id: string) => stateKey(TAG.deliveryOwned, id)
export const dueKey = (atMs: number, id: string) => stateKey(TAG.deliveryDue, String(atMs).padStart(15, '0'), id)

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

/** Ids of deliveries due at or before `nowMs`, earliest first. */
export async function dueIds (state: StateDb, nowMs: number, limit: number): Promise<string[]> {
  const gte = stateKey(TAG.deliveryDue, '')
  const lt = stateKey(TAG.deliveryDue, String(nowMs + 1).padStart(15, '0'))
  const ids: string[] = []
  for await (const [key] of scan(state.db, gte, lt, { limit })) ids.push(key.toString().split('\u0000')[2]!)
  return ids
}
