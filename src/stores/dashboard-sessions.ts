import { createHash } from 'node:crypto'
import { stateKey, TAG } from './keys.js'
import type { StateDb } from './state-db.js'
import type { StoreWrites } from './writes.js'
import type { DashboardSession, DashboardSessionChange } from '../domain/records/dashboard-sessions.js'

/** A session's id: the SHA-256 of its cookie's secret. */
export const sessionId = (secret: string) => createHash('sha256').update(secret).digest('base64url')
const key = (id: string) => stateKey(TAG.dashboardSession, id)

export async function getDashboardSession (state: StateDb, id: string): Promise<DashboardSession | undefined> {
  const raw = await state.get(key(id))
  return raw === undefined ? undefined : JSON.parse(raw.toString()) as DashboardSession
}

/** Applies a session change; an ended session stays ended (a late touch does not revive it). */
export async function applyDashboardSessionChange (change: DashboardSessionChange, writes: StoreWrites): Promise<void> {
  const old = await writes.get(key(change.session.id))
  const ended = old === undefined ? null : (JSON.parse(old.toString()) as DashboardSession).ended_ms
  writes.put(key(change.session.id), Buffer.from(JSON.stringify(ended === null ? change.session : { ...change.session, ended_ms: ended })))
}
