import { createHash, randomBytes } from 'node:crypto'
import { writeBatchSync } from './rocks.js'
import { newId } from '../domain/ids.js'
import { stateKey, TAG } from './keys.js'
import type { StateDb } from './state-db.js'
import type { StoreWrites } from './writes.js'
import type { ApiKeyRecord, ApiKeyChange } from '../domain/records/api-keys.js'

export const secretHash = (secret: string) => createHash('sha256').update(secret).digest('hex')
export const apiKeyKey = (secret: string) => apiKeyHashKey(secretHash(secret))
export const apiKeyHashKey = (hash: string) => stateKey(TAG.apiKey, hash)
export const apiKeyByIdKey = (tenant: string, id: string) => stateKey(TAG.apiKeyById, tenant, id)
export const redact = (secret: string) => `${secret.slice(0, 8)}...${secret.slice(-4)}`

export function newSecret (livemode: boolean): string {
  return (livemode ? 'sk_live_' : 'sk_test_') + randomBytes(24).toString('base64url')
}

/**
 * Keys found by secret, per store, valid while `generation` is unchanged: authentication reads and parses a
 * key once, not per request. Any key change (applied by the api-keys view, or stored directly) makes a new
 * generation once written; unknown secrets are never cached (they would let anyone fill the cache).
 */
const found = new WeakMap<StateDb, Map<string, { record: ApiKeyRecord, generation: number }>>()
let generation = 0
const CACHED_KEYS = 10_000
const keysChanged = () => { generation++ }

export async function lookupApiKey (state: StateDb, secret: string): Promise<ApiKeyRecord | undefined> {
  let cache = found.get(state)
  if (cache === undefined) found.set(state, cache = new Map())
  const hit = cache.get(secret)
  if (hit !== undefined && hit.generation === generation) return hit.record
  const readAt = generation
  const raw = await state.get(apiKeyKey(secret))
  if (raw === undefined) return undefined
  const record = JSON.parse(raw.toString()) as ApiKeyRecord
  if (readAt === generation) {
    if (cache.size >= CACHED_KEYS) cache.clear()
    cache.set(secret, { record, generation })
  }
  return record
}

/** A new active key of a tenant and its secret (shown once; the record keeps its SHA-256). */
export function newApiKey (tenant: string, name: string, livemode: boolean, scopes: string[], nowMs: number): { key: ApiKeyRecord, secret: string } {
  const secret = newSecret(livemode)
  const key: ApiKeyRecord = { id: newId('key', nowMs), name, tenant_id: tenant, livemode, scopes, created_ms: nowMs, status: 'active', expires_ms: null, redacted: redact(secret), secret_hash: secretHash(secret), rotated_to: null }
  return { key, secret }
}

/** Registers a key in this instance's store only (bootstrap and test keys); managed keys go through the api-keys topic. */
export function storeApiKey (state: StateDb, secret: string, record: ApiKeyRecord): void {
  const full: ApiKeyRecord = { status: 'active', expires_ms: null, rotated_to: null, redacted: redact(secret), secret_hash: secretHash(secret), ...record }
  const value = Buffer.from(JSON.stringify(full))
  writeBatchSync(state.db, [{ type: 'put', key: apiKeyKey(secret), value }, { type: 'put', key: apiKeyByIdKey(record.tenant_id, record.id), value }], true)
  keysChanged()
}

/** Applies a key change: by secret hash (authentication) and by tenant and id (management). */
export function applyApiKeyChange (change: ApiKeyChange, writes: StoreWrites): void {
  const value = Buffer.from(JSON.stringify(change.key))
  writes.put(apiKeyHashKey(change.key.secret_hash!), value)
  writes.put(apiKeyByIdKey(change.key.tenant_id, change.key.id), value)
  // Also when the write failed: a lookup may have cached nothing newer meanwhile, and reading again is cheap.
  writes.append(() => [], keysChanged)
}
