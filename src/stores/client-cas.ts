import type { Mode, Scope } from '../domain/scope.js'
import { stateKey, TAG } from './keys.js'
import type { StoreWrites } from './writes.js'

/** The client CA a tenant uploaded for one mode (PEM), as materialized from the compacted `client-cas` topic. */
export const clientCaKey = (scope: Scope) => stateKey(TAG.clientCa, scope.tenant, scope.mode)

/** `mode` is absent on records written before client CAs were per mode: those were live. */
export interface ClientCaRecord { tenant_id: string, mode?: Mode, certificate: string, uploaded_ms: number, change_id: string }

export const clientCaScope = (r: ClientCaRecord): Scope => ({ tenant: r.tenant_id, mode: r.mode ?? 'live' })

export function applyClientCa (r: ClientCaRecord, writes: StoreWrites): void {
  writes.put(clientCaKey(clientCaScope(r)), Buffer.from(JSON.stringify(r)))
}
