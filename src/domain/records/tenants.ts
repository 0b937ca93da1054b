import type { LogRecord } from './log-record.js'

/**
 * A tenant as the operator manages it (docs/operations.md#tenants): its name, the cell it lives in, and whether its keys
 * and dashboard sessions are answered. A suspended tenant keeps its state; its pipeline keeps running. A deleted
 * one is erased (docs/operations.md#deleting-a-tenant): its record stays, without its name, so that every instance,
 * one started later included, passes over what the logs still hold of it.
 */
export interface TenantRecord {
  id: string
  name: string
  cell: number
  status: 'active' | 'suspended' | 'deleted'
  /** What the operator set apart from the deployment's defaults (docs/operations.md#tenants). */
  quotas?: TenantQuotas
  created_ms: number
  updated_ms: number
}

/**
 * A tenant's own bounds, each instead of the deployment's: requests a second and bucket size per API key
 * (RATE_LIMIT_PER_SECOND, RATE_LIMIT_BURST) and for all its keys together (RATE_LIMIT_TENANT_PER_SECOND,
 * RATE_LIMIT_TENANT_BURST), events a batch (at most the API's 500), rules in a ruleset and items a list holds
 * (DEFAULT_QUOTAS).
 */
export interface TenantQuotas {
  rate_per_second?: number
  burst?: number
  tenant_rate_per_second?: number
  tenant_burst?: number
  batch_size?: number
  rules?: number
  list_items?: number
}

/** What every tenant may hold unless the operator set otherwise: each rule runs on every request, each list is in memory. */
export const DEFAULT_QUOTAS = { rules: 1_000, list_items: 100_000 } as const

/** A record of the compacted `tenants` topic (key: the tenant id): compaction keeps each tenant's latest state. */
export interface TenantChange { tenant: TenantRecord, change_id: string }

export const tenantChangeRecord = (c: TenantChange): LogRecord => ({ key: c.tenant.id, value: Buffer.from(JSON.stringify(c)), headers: { tenant_id: c.tenant.id } })
