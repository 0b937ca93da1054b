import type { LogRecord } from './log-record.js'

/**
 * docs/spec.md's scopes plus transactions:read, audit:read, keys:manage, lists:write (list items only) and
 * users:manage (dashboard users), chosen where the spec is silent (docs/api.md).
 */
export const ALL_SCOPES = ['score:write', 'transactions:read', 'rules:read', 'rules:write', 'lists:write', 'cases:read', 'cases:write', 'webhooks:manage', 'audit:read', 'keys:manage', 'users:manage', 'signals:write'] as const
export type Scope = typeof ALL_SCOPES[number]

/** A scope that a broader one also grants: list items were rules:write's before lists:write existed. */
export const ALSO_GRANTED_BY: Readonly<Record<string, string>> = { 'lists:write': 'rules:write' }

/** Whether these scopes allow what `scope` guards. */
export const grants = (scopes: readonly string[], scope: string): boolean =>
  scopes.includes(scope) || (ALSO_GRANTED_BY[scope] !== undefined && scopes.includes(ALSO_GRANTED_BY[scope]))

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
export const apiKeyChangeRecord = (c: ApiKeyChange): LogRecord => ({ key: `${c.key.tenant_id}:${c.key.id}`, value: Buffer.from(JSON.stringify(c)), headers: { tenant_id: c.key.tenant_id } })
