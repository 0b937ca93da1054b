import { ALL_SCOPES } from '../records/api-keys.js'

/** Dashboard roles, most to least: what a dashboard user may do is its role's scopes, as an API key's are its own. */
export const ROLES = ['admin', 'analyst', 'viewer'] as const
export type Role = typeof ROLES[number]

/** Reads every page shows. */
const READS = ['transactions:read', 'rules:read', 'cases:read', 'audit:read'] as const

/**
 * The API scopes each role acts with (docs/dashboard.md: roles map onto the API's scopes):
 * - admin: everything, keys, webhooks and dashboard users included;
 * - analyst: works cases (claim, disposition) and list items, reads decisions, rules and the audit trail;
 * - viewer: reads only.
 */
export const ROLE_SCOPES: Readonly<Record<Role, readonly string[]>> = {
  admin: ALL_SCOPES,
  analyst: [...READS, 'cases:write', 'lists:write'],
  viewer: READS
}

export const isRole = (value: unknown): value is Role => typeof value === 'string' && (ROLES as readonly string[]).includes(value)
