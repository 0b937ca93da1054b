/** Every piece of state, every topic record and every request is scoped to one tenant in one mode. */
export type Mode = 'live' | 'test'
export interface Scope { tenant: string, mode: Mode }

/** A scope as one string, for in-memory maps keyed by scope. */
export const scopeId = (scope: Scope): string => `${scope.tenant}\u0000${scope.mode}`

/** The scope of anything that names its tenant and livemode: a recorded decision, a feedback label. */
export const scopeOf = (r: { tenant_id: string, livemode: boolean }): Scope => ({ tenant: r.tenant_id, mode: r.livemode ? 'live' : 'test' })
