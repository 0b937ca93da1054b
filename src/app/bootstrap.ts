import { lookupApiKey, newSecret, storeApiKey } from '../stores/api-keys.js'
import { newId } from '../domain/ids.js'
import { stateKey, TAG } from '../stores/keys.js'
import type { StateDb } from '../stores/state-db.js'
import { writeBatchSync } from '../stores/rocks.js'
import { ALL_SCOPES } from '../domain/records/api-keys.js'

export interface Identity {
  /** This instance's origin id: tags its decisions so its materializer can skip them. Kept with the state. */
  originId: string
  defaultTenant: string
  /** The sandbox key created on the very first start of this data directory (shown once), else undefined. */
  firstSandboxKey: string | undefined
}

async function getOrCreate (state: StateDb, name: string, make: () => string): Promise<[string, boolean]> {
  const key = stateKey(TAG.meta, name)
  const existing = await state.get(key)
  if (existing !== undefined) return [existing.toString(), false]
  const value = make()
  writeBatchSync(state.db, [{ type: 'put', key, value: Buffer.from(value) }], true)
  return [value, true]
}

/** First start of a data directory: an origin id, a default tenant and one sandbox key with every scope. */
export async function bootstrap (state: StateDb, extraKeys: readonly string[], nowMs: number, tenantId?: string): Promise<Identity> {
  const [originId] = await getOrCreate(state, 'origin_id', () => newId('org'))
  const [defaultTenant, created] = await getOrCreate(state, 'default_tenant', () => tenantId ?? newId('ten'))
  const register = (secret: string, name: string) => storeApiKey(state, secret, {
    id: newId('key', nowMs),
    name,
    tenant_id: defaultTenant,
    livemode: secret.startsWith('sk_live_'),
    scopes: [...ALL_SCOPES],
    created_ms: nowMs
  })
  let firstSandboxKey: string | undefined
  if (created) {
    firstSandboxKey = newSecret(false)
    register(firstSandboxKey, 'Sandbox key created on first start')
  }
  for (const secret of extraKeys) {
    if (!/^sk_(live|test)_[A-Za-z0-9_-]{16,}$/.test(secret)) throw new Error('BOOTSTRAP_API_KEYS entries must be sk_live_/sk_test_ followed by at least 16 characters')
    if (await lookupApiKey(state, secret) === undefined) register(secret, 'Bootstrap key from BOOTSTRAP_API_KEYS')
  }
  return { originId, defaultTenant, firstSandboxKey }
}
