import type { Mode, Scope } from '../scope.js'
import type { LogRecord } from './log-record.js'

/** `mode` is absent on records written before client CAs were per mode: those were live. */
export interface ClientCaRecord { tenant_id: string, mode?: Mode, certificate: string, uploaded_ms: number, change_id: string }

export const clientCaScope = (r: ClientCaRecord): Scope => ({ tenant: r.tenant_id, mode: r.mode ?? 'live' })

export const clientCaRecord = (r: ClientCaRecord): LogRecord => ({ key: `${r.tenant_id}:${clientCaScope(r).mode}`, value: Buffer.from(JSON.stringify(r)), headers: { tenant_id: r.tenant_id } })
