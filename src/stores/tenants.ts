import { prefixRange, stateKey, TAG } from './keys.js'
import { scanJson } from './rocks.js'
import type { StateDb } from './state-db.js'
import type { StoreWrites } from './writes.js'
import type { TenantChange, TenantRecord } from '../domain/records/tenants.js'

export const tenantKey = (id: string) => stateKey(TAG.tenant, id)
export const tenantRange = () => prefixRange(TAG.tenant)

export async function readTenant (state: StateDb, id: string): Promise<TenantRecord | undefined> {
  const raw = await state.get(tenantKey(id))
  return raw === undefined ? undefined : JSON.parse(raw.toString()) as TenantRecord
}

/**
 * The suspended tenants, in memory: authentication asks on every request without I/O. Loaded from local state
 * at start, then kept current by the tenants view.
 */
export class SuspendedTenants {
  private readonly ids = new Set<string>()

  static async load (state: StateDb): Promise<SuspendedTenants> {
    const index = new SuspendedTenants()
    const [gte, lt] = tenantRange()
    for await (const t of scanJson<TenantRecord>(state.db, gte, lt)) index.note(t)
    return index
  }

  note (t: TenantRecord): void {
    if (t.status === 'suspended') this.ids.add(t.id)
    else this.ids.delete(t.id)
  }

  has (tenant: string): boolean {
    return this.ids.size > 0 && this.ids.has(tenant)
  }
}

/** Applies a tenant change: the record by id, and the in-memory index once the write is done. */
export function applyTenantChange (change: TenantChange, writes: StoreWrites, suspended: SuspendedTenants): void {
  writes.put(tenantKey(change.tenant.id), Buffer.from(JSON.stringify(change.tenant)))
  writes.append(() => [], written => { if (written) suspended.note(change.tenant) })
}
