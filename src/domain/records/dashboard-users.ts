import type { LogRecord } from './log-record.js'
import type { Role } from '../dashboard/roles.js'

/** A person who signs in to the dashboard: one tenant, one role, both modes (a live/sandbox switch as Stripe's). */
export interface DashboardUser {
  id: string
  tenant_id: string
  /** Lower-cased; unique across the deployment (it is what a person signs in with). */
  email: string
  name: string
  role: Role
  /** argon2id (PHC string); never leaves the service. */
  password_hash: string
  status: 'active' | 'disabled'
  created_ms: number
}

/** A record of the compacted `dashboard-users` topic (key tenant:user id). */
export interface DashboardUserChange { user: DashboardUser, change_id: string }

export const dashboardUserChangeRecord = (c: DashboardUserChange): LogRecord =>
  ({ key: `${c.user.tenant_id}:${c.user.id}`, value: Buffer.from(JSON.stringify(c)), headers: { tenant_id: c.user.tenant_id } })
