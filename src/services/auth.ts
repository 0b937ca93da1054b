import type { Scope } from '../domain/scope.js'
import { ApiError } from './errors.js'
import { grants, type ApiKeyRecord } from '../domain/records/api-keys.js'

/** Keys issued before 2025 used other prefixes; they are refused from this instant on (docs/spec.md, Authentication 7). */
export const LEGACY_CUTOFF_MS = Date.parse('2026-09-01T00:00:00Z')

/** Who calls: an API key, or a dashboard user through their session (services/dashboard-auth.ts). */
export interface Principal {
  /** The key's id or the user's id: what audit entries, idempotency keys and rate limits are per. */
  actor: string
  /** The actor's name when it has one (a dashboard user's), shown beside the id in trails. */
  name?: string
  scopes: readonly string[]
  tenant: string
  mode: 'live' | 'test'
}

/** The tenant and mode a key acts in: every store and topic it reaches is keyed by them. */
export const principalScope = (p: Principal): Scope => ({ tenant: p.tenant, mode: p.mode })

/** Extracts the bearer secret, refusing what cannot be a current key before any store lookup. */
export function bearerSecret (header: string | undefined, nowMs: number): string {
  if (header === undefined || header === '') {
    throw new ApiError('missing_key', 'No API key provided. Send it as `Authorization: Bearer sk_live_...` or `sk_test_...`.')
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
  if (match === null) {
    throw new ApiError('invalid_key', 'Malformed Authorization header. Expected `Bearer <API_KEY>`.')
  }
  const secret = match[1]!
  if (!secret.startsWith('sk_live_') && !secret.startsWith('sk_test_') && nowMs >= LEGACY_CUTOFF_MS) {
    throw new ApiError('invalid_key', 'Keys with legacy prefixes are rejected since 2026-09-01. Use an sk_live_ or sk_test_ key.')
  }
  return secret
}

export function principalFor (key: ApiKeyRecord | undefined, nowMs: number): Principal {
  if (key === undefined) throw new ApiError('invalid_key', 'Invalid API key provided.')
  if (key.status === 'revoked') throw new ApiError('key_revoked', 'This API key has been revoked.')
  if (key.expires_ms != null && key.expires_ms <= nowMs) throw new ApiError('key_expired', 'This API key expired after a rotation; use the new key.')
  return { actor: key.id, scopes: key.scopes, tenant: key.tenant_id, mode: key.livemode ? 'live' : 'test' }
}

/**
 * Refuses a principal whose tenant the operator suspended (its keys and dashboard sessions alike); a deleted
 * tenant's keys are no keys (its state, keys included, is being erased).
 */
export function requireActiveTenant (principal: Principal, tenants: { isSuspended(tenant: string): boolean, isErased(tenant: string): boolean }): void {
  if (tenants.isErased(principal.tenant)) throw new ApiError('invalid_key', 'Invalid API key provided.')
  if (tenants.isSuspended(principal.tenant)) throw new ApiError('tenant_suspended', 'This account is suspended: its API keys and dashboard sessions are refused until the operator resumes it.')
}

export function requireScope (principal: Principal, scope: string): void {
  if (!grants(principal.scopes, scope)) {
    throw new ApiError('insufficient_scope', `${principal.actor.startsWith('usr_') ? 'Your role' : 'This API key'} lacks the scope '${scope}' required for this request.`)
  }
}

/** The scopes among `scopes` the principal does not hold: what it may not grant (a key or a role it creates). */
export const scopesNotHeld = (principal: Principal, scopes: readonly string[]): string[] => scopes.filter(s => !grants(principal.scopes, s))
