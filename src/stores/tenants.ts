import { prefixRange, stateKey, TAG } from './keys.js'
import { scanJson } from './rocks.js'
import type { StateDb } from './state-db.js'
import type { StoreWrites } from './writes.js'
import type { TenantChange, TenantQuotas, TenantRecord } from '../domain/records/tenants.js'

export const tenantKey = (id: string) => stateKey(TAG.tenant, id)
export const tenantRange = () => prefixRange(TAG.tenant)

export async function readTenant (state: StateDb, id: string): Promise<TenantRecord | undefined> {
  const raw = await state.get(tenantKey(id))
  return raw === undefined ? undefined : JSON.parse(raw.toString()) as TenantRecord
}

/** A rate-limit bucket's rate (tokens a second) and size: the deployment's, or a tenant's quota. */
export interface RateLimits { rate: number, burst: number }

/**
 * What a request's checks need of the operator's tenants, in memory (no I/O on the request path): the suspended
 * ones and the quotas set. Loaded from local state at start, then kept current by the tenants view.
 */
export class TenantDirectory {
  private readonly suspended = new Set<string>()
  private readonly erased = new Set<string>()
  /** Each tenant's cell (docs/architecture.md#cells); the default tenant, which has no record, lives in cell 0. */
  private readonly cells = new Map<string, number>()
  private readonly quotas = new Map<string, TenantQuotas>()

  static async load (state: StateDb): Promise<TenantDirectory> {
    const directory = new TenantDirectory()
    const [gte, lt] = tenantRange()
    for await (const t of scanJson<TenantRecord>(state.db, gte, lt)) directory.note(t)
    return directory
  }

  note (t: TenantRecord): void {
    if (t.status === 'suspended') this.suspended.add(t.id)
    else this.suspended.delete(t.id)
    if (t.status === 'deleted') {
      this.erased.add(t.id)
      this.cells.delete(t.id)
    } else {
      this.cells.set(t.id, t.cell)
    }
    if (t.quotas === undefined || Object.keys(t.quotas).length === 0) this.quotas.delete(t.id)
    else this.quotas.set(t.id, t.quotas)
  }

  isSuspended (tenant: string): boolean {
    return this.suspended.size > 0 && this.suspended.has(tenant)
  }

  /** Deleted by the operator: nothing of it is answered, applied or kept any more. */
  isErased (tenant: string): boolean {
    return this.erased.size > 0 && this.erased.has(tenant)
  }

  /** The cell the tenant lives in. */
  cellOf (tenant: string): number {
    return this.cells.get(tenant) ?? 0
  }

  /** Of `cells`, the one with the fewest tenants (the lowest of equals): where a new tenant goes. */
  emptiestCell (cells: number): number {
    const counts = new Array<number>(cells).fill(0)
    for (const cell of this.cells.values()) if (cell < cells) counts[cell]!++
    return counts.indexOf(Math.min(...counts))
  }

  /** Every deleted tenant (erasure runs again for each at start: stores/erasure.ts). */
  deleted (): string[] { return [...this.erased] }

  /** The tenant's rate and burst per API key: its quota's, else `defaults` (the same object: no allocation). */
  limitsOf (tenant: string, defaults: RateLimits): RateLimits {
    return this.bucketOf(tenant, 'rate_per_second', 'burst', defaults)
  }

  /** The rate and burst of all the tenant's keys together: its quota's, else `defaults`. */
  tenantLimitsOf (tenant: string, defaults: RateLimits): RateLimits {
    return this.bucketOf(tenant, 'tenant_rate_per_second', 'tenant_burst', defaults)
  }

  private bucketOf (tenant: string, rate: 'rate_per_second' | 'tenant_rate_per_second', burst: 'burst' | 'tenant_burst', defaults: RateLimits): RateLimits {
    const q = this.quotas.size === 0 ? undefined : this.quotas.get(tenant)
    return q === undefined || (q[rate] === undefined && q[burst] === undefined) ? defaults : { rate: q[rate] ?? defaults.rate, burst: q[burst] ?? defaults.burst }
  }

  /** One of the tenant's count quotas (a batch's events, rules, a list's items): its own, else `otherwise`. */
  quotaOf (tenant: string, name: 'batch_size' | 'rules' | 'list_items', otherwise: number): number {
    return (this.quotas.size === 0 ? undefined : this.quotas.get(tenant)?.[name]) ?? otherwise
  }
}

/**
 * Applies a tenant change: the record by id, and the in-memory index once the write is done; a deletion then
 * erases the tenant's state here (`erase`, which runs in the background).
 */
export function applyTenantChange (change: TenantChange, writes: StoreWrites, directory: TenantDirectory, erase: (tenant: string) => void): void {
  writes.put(tenantKey(change.tenant.id), Buffer.from(JSON.stringify(change.tenant)))
  writes.append(() => [], written => {
    if (!written) return
    directory.note(change.tenant)
    if (change.tenant.status === 'deleted') erase(change.tenant.id)
  })
}
