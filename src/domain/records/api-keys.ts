import type { LogRecord } from './log-record.js'

/** SPEC.md's scopes plus transactions:read, audit:read and keys:manage (chosen where the spec is silent; README). */
export const ALL_SCOPES = ['score:write', 'transactions:read', 'rules:read', 'rules:write', 'cases:read', 'cases:write', 'webhooks:manage', 'audit:read', 'keys:manage', 'signals:write'] as const
export type Scope = typeof ALL_SCOPES[number]

/** What a key grants; the secret itself is never stored, only its SHA-256. */
export interface ApiKeyRecord {
  id: string
  name: string
  tenant_id: string
  livemode: boolean
  scopes: string[]
  created_ms: number
  /** Revoked keys answer 401 key_revoked. */
  status?: 'active' | 'revoked'
  /** Set on the old key of a rotation: valid until then, 401 key_expired after. */
  expires_ms?: number | null
  /** The prefix and last 4 characters, for display (sk_test_...abcd). */
  redacted?: string
  /** SHA-256 of the secret: how the key is found (the secret itself is never stored). */
  secret_hash?: string
  /** The key a rotation replaced this one with. */
  rotated_to?: string | null
}

/** A record of the compacted `api-keys` topic (key tenant:key id). */
export interface ApiKeyChange { key: ApiKeyRecord, change_id: string }

/** Keyed by tenant and key id: compaction keeps each key's latest state. */
export const apiKeyChangeRecord = (c: ApiKeyChange): LogRecord => ({ key: `${c.key.tenant_id}:${c.key.id}`, value: Buffer.from(JSON.stringify(c)) })
