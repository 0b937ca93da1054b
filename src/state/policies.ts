import { defaultPolicy } from '../decision/default-policy.js'
import type { TenantPolicy } from '../decision/types.js'
import { writeBatchSync } from '../storage/rocks.js'
import { stateKey, TAG } from './keys.js'
import type { StateDb } from './state-db.js'
import type { Scope } from './velocity.js'

export const policyKey = (scope: Scope) => stateKey(TAG.policy, scope.tenant, scope.mode)

export function parsePolicy (raw: Buffer | undefined): TenantPolicy {
  return raw === undefined ? defaultPolicy() : JSON.parse(raw.toString()) as TenantPolicy
}

export async function putPolicy (state: StateDb, scope: Scope, policy: TenantPolicy): Promise<void> {
  writeBatchSync(state.db, [{ type: 'put', key: policyKey(scope), value: Buffer.from(JSON.stringify(policy)) }], true)
}
