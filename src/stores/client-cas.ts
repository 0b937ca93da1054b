import type { Scope } from '../domain/scope.js'
import { stateKey, TAG } from './keys.js'
import type { StoreWrites } from './writes.js'
import { clientCaScope, type ClientCaRecord } from '../domain/records/client-cas.js'

/** The client CA a tenant uploaded for one mode (PEM), as materialized from the compacted `client-cas` topic. */
export const clientCaKey = (scope: Scope) => stateKey(TAG.clientCa, scope.tenant, scope.mode)

export function applyClientCa (r: ClientCaRecord, writes: StoreWrites): void {
  writes.put(clientCaKey(clientCaScope(r)), Buffer.from(JSON.stringify(r)))
}
