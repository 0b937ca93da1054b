import type { Override } from '../decision/types.js'
import type { Mode } from '../scope.js'
import type { LogRecord } from './log-record.js'

/** A record of the compacted `overrides` topic (key: tenant, mode, override id). */
export interface OverrideRecord {
  tenant_id: string
  mode: Mode
  override: Override
  deleted: boolean
  /** Who created or deleted it (API key id). */
  actor: string
  change_id: string
}

export const overrideRecord = (c: OverrideRecord): LogRecord => ({ key: `${c.tenant_id}:${c.mode}:${c.override.id}`, value: Buffer.from(JSON.stringify(c)), headers: { tenant_id: c.tenant_id } })
