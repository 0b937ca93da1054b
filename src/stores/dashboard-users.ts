import { prefixRange, rangeAfter, stateKey, TAG } from './keys.js'
import { scanJson } from './rocks.js'
import type { StateDb } from './state-db.js'
import type { StoreWrites } from './writes.js'
import type { DashboardUser, DashboardUserChange } from '../domain/records/dashboard-users.js'

const byId = (tenant: string, id: string) => stateKey(TAG.dashboardUser, tenant, id)
/** An email is unique within a tenant, not across tenants: no tenant learns which emails another one has. */
const byEmail = (email: string, tenant: string) => stateKey(TAG.dashboardUserByEmail, email, tenant)
/** Before emails were per tenant, the one user of an email was indexed under the email alone. */
const legacyByEmail = (email: string) => stateKey(TAG.dashboardUserByEmail, email)

export async function getDashboardUser (state: StateDb, tenant: string, id: string): Promise<DashboardUser | undefined> {
  const raw = await state.get(byId(tenant, id))
  return raw === undefined ? undefined : JSON.parse(raw.toString()) as DashboardUser
}

/** The users of an email in every tenant (a person may work for several), in tenant order. */
export async function findDashboardUsersByEmail (state: StateDb, email: string): Promise<DashboardUser[]> {
  const refs = new Map<string, string>()
  const legacy = await state.get(legacyByEmail(email))
  if (legacy !== undefined) { const [tenant, id] = JSON.parse(legacy.toString()) as [string, string]; refs.set(tenant, id) }
  for await (const [tenant, id] of scanJson<[string, string]>(state.db, ...prefixRange(TAG.dashboardUserByEmail, email))) refs.set(tenant, id)
  const users = await Promise.all([...refs].map(([tenant, id]) => getDashboardUser(state, tenant, id)))
  return users.filter((u): u is DashboardUser => u !== undefined)
}

/** The user of an email in one tenant. */
export async function findTenantUserByEmail (state: StateDb, tenant: string, email: string): Promise<DashboardUser | undefined> {
  return (await findDashboardUsersByEmail(state, email)).find(u => u.tenant_id === tenant)
}

/** A tenant's users in id order (creation order), from after `startingAfter`. */
export function scanDashboardUsers (state: StateDb, tenant: string, startingAfter?: string): AsyncGenerator<DashboardUser> {
  const [from, lt] = rangeAfter(prefixRange(TAG.dashboardUser, tenant), startingAfter === undefined ? undefined : byId(tenant, startingAfter))
  return scanJson<DashboardUser>(state.db, from, lt)
}

/** Whether a tenant has any user: the first admin is created through the one-time setup link until it has. */
export async function hasDashboardUsers (state: StateDb, tenant: string): Promise<boolean> {
  for await (const _ of scanDashboardUsers(state, tenant)) return true
  return false
}

/** Applies a user change: by tenant and id, and by email within its tenant (the first user of an email there keeps it). */
export async function applyDashboardUserChange (change: DashboardUserChange, writes: StoreWrites): Promise<void> {
  const { user } = change
  const ref = JSON.stringify([user.tenant_id, user.id])
  const owner = await writes.get(byEmail(user.email, user.tenant_id)) ?? await writes.get(legacyByEmail(user.email))
  const ownerTenant = owner === undefined ? undefined : (JSON.parse(owner.toString()) as [string, string])[0]
  if (owner !== undefined && ownerTenant === user.tenant_id && ref !== owner.toString()) return
  writes.put(byId(user.tenant_id, user.id), Buffer.from(JSON.stringify(user)))
  writes.put(byEmail(user.email, user.tenant_id), Buffer.from(ref))
}
