import { prefixRange, stateKey, TAG } from './keys.js'
import { scanJson } from './rocks.js'
import type { StateDb } from './state-db.js'
import type { StoreWrites } from './writes.js'
import type { DashboardUser, DashboardUserChange } from '../domain/records/dashboard-users.js'

const byId = (tenant: string, id: string) => stateKey(TAG.dashboardUser, tenant, id)
const byEmail = (email: string) => stateKey(TAG.dashboardUserByEmail, email)

export async function getDashboardUser (state: StateDb, tenant: string, id: string): Promise<DashboardUser | undefined> {
  const raw = await state.get(byId(tenant, id))
  return raw === undefined ? undefined : JSON.parse(raw.toString()) as DashboardUser
}

export async function findDashboardUserByEmail (state: StateDb, email: string): Promise<DashboardUser | undefined> {
  const ref = await state.get(byEmail(email))
  if (ref === undefined) return undefined
  const [tenant, id] = JSON.parse(ref.toString()) as [string, string]
  return getDashboardUser(state, tenant, id)
}

/** A tenant's users in id order (creation order), from after `startingAfter`. */
export function scanDashboardUsers (state: StateDb, tenant: string, startingAfter?: string): AsyncGenerator<DashboardUser> {
  const [gte, lt] = prefixRange(TAG.dashboardUser, tenant)
  return scanJson<DashboardUser>(state.db, startingAfter === undefined ? gte : Buffer.concat([byId(tenant, startingAfter), Buffer.from([0])]), lt)
}

/** Whether a tenant has any user: the first admin is created through the one-time setup link until it has. */
export async function hasDashboardUsers (state: StateDb, tenant: string): Promise<boolean> {
  for await (const _ of scanDashboardUsers(state, tenant)) return true
  return false
}

/** Applies a user change: by tenant and id, and by email (the first user of an email keeps it). */
export async function applyDashboardUserChange (change: DashboardUserChange, writes: StoreWrites): Promise<void> {
  const { user } = change
  const owner = await writes.get(byEmail(user.email))
  if (owner !== undefined && JSON.stringify([user.tenant_id, user.id]) !== owner.toString()) return
  writes.put(byId(user.tenant_id, user.id), Buffer.from(JSON.stringify(user)))
  writes.put(byEmail(user.email), Buffer.from(JSON.stringify([user.tenant_id, user.id])))
}
