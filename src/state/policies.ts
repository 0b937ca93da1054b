import { defaultPolicy } from '../decision/default-policy.js'
import type { TenantPolicy } from '../decision/types.js'
import { writeBatchSync } from '../storage/rocks.js'
import { stateKey, TAG } from './keys.js'
import type { StateDb } from './state-db.js'
import type { Scope } from './velocity.js'

export const policyKey = (scope: Scope) => stateKey(TAG.policy, scope.tenant, scope.mode)

/** Tenant scoring configuration: risk thresholds and the action per risk level (rules live in ruleset versions). */
export type TenantConfig = Omit<TenantPolicy, 'ruleset'>

export function parseConfig (raw: Buffer | undefined): TenantConfig {
  if (raw !== undefined) return JSON.parse(raw.toString()) as TenantConfig
  const { thresholds, actions } = defaultPolicy()
  return { thresholds, actions }
}

export async function putConfig (state: StateDb, scope: Scope, policy: TenantConfig): Promise<void> {
  writeBatchSync(state.db, [{ type: 'put', key: policyKey(scope), value: Buffer.from(JSON.stringify(policy)) }], true)
}
