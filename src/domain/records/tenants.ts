import type { LogRecord } from './log-record.js'

/**
 * A tenant as the operator manages it (docs/operations.md#tenants): its name, the cell it lives in, and whether its keys
 * and dashboard sessions are answered. A suspended tenant keeps its state; its pipeline keeps running.
 */
export interface TenantRecord {
  id: string
  name: string
  cell: number
  status: 'active' | 'suspended'
  /** What the operator set apart from the deployment's defaults (docs/operations.md#tenants). */
  quotas?: TenantQuotas
  created_ms: number
  updated_ms: number
}

/**
 * A tenant's own bounds, each instead of the deployment's: requests a second and bucket size per API key
 * (RATE_LIMIT_PER_SECOND, RATE_LIMIT_BURST), events a batch (at most the API's 500), rules in a ruleset and
 * items a list holds (DEFAULT_QUOTAS).
 */
export interface TenantQuotas { rate_per_second?: number, burst?: number, batch_size?: number, rules?: number, list_items?: number }

/** What every tenant may hold unless the operator set otherwise: each rule runs on every request, each list is in memory. */
export const DEFAULT_QUOTAS = { rules: 1_000, list_items: 100_000 } as const

/** A record of the compacted `tenants` topic (key: the tenant id): compaction keeps each tenant's latest state. */
export interface TenantChange { tenant: TenantRecord, change_id: string }

export const tenantChangeRecord = (c: TenantChange): LogRecord => ({ key: c.tenant.id, value: Buffer.from(JSON.stringify(c)), headers: { tenant_id: c.tenant.id } })
