import { createHash, randomBytes } from 'node:crypto'
import { writeBatchSync } from '../storage/rocks.js'
import { stateKey, TAG } from './keys.js'
import type { StateDb } from './state-db.js'

export const ALL_SCOPES = ['score:write', 'transactions:read', 'rules:read', 'rules:write', 'cases:read', 'cases:write', 'webhooks:manage'] as const
export type Scope = typeof ALL_SCOPES[number]

/** What a key grants; the secret itself is never stored, only its SHA-256. */
export interface ApiKeyRecord {
  id: string
  name: string
  tenant_id: string
  livemode: boolean
  scopes: string[]
  created_ms: number
}

const hash = (secret: string) => createHash('sha256').update(secret).digest('hex')
export const apiKeyKey = (secret: string) => stateKey(TAG.apiKey, hash(secret))

export function newSecret (livemode: boolean): string {
  return (livemode ? 'sk_live_' : 'sk_test_') + randomBytes(24).toString('base64url')
}

export async function lookupApiKey (state: StateDb, secret: string): Promise<ApiKeyRecord | undefined> {
  const raw = await state.get(apiKeyKey(secret))
  return raw === undefined ? undefined : JSON.parse(raw.toString()) as ApiKeyRecord
}

export function storeApiKey (state: StateDb, secret: string, record: ApiKeyRecord): void {
  writeBatchSync(state.db, [{ type: 'put', key: apiKeyKey(secret), value: Buffer.from(JSON.stringify(record)) }], true)
}
