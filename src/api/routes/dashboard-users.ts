import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ROLE_SCOPES, ROLES, type Role } from '../../domain/dashboard/roles.js'
import { scopesNotHeld } from '../../services/auth.js'
import type { DashboardUser } from '../../domain/records/dashboard-users.js'
import { MIN_PASSWORD_LENGTH, type DashboardAuth } from '../../services/dashboard-auth.js'
import { ApiError, notFound } from '../../services/errors.js'
import { getDashboardUser, scanDashboardUsers } from '../../stores/dashboard-users.js'
import type { StateDb } from '../../stores/state-db.js'
import { listQuerySchema, pageOf, type ListQuery } from '../pagination.js'

export const dashboardUserResource = (u: DashboardUser) => ({
  object: 'dashboard_user', id: u.id, email: u.email, name: u.name, role: u.role, status: u.status, created: Math.floor(u.created_ms / 1000)
})

const EMAIL = { type: 'string', pattern: '^[^@\\s\\u0000]+@[^@\\s\\u0000]+$', maxLength: 254 }
const NAME = { type: 'string', minLength: 1, maxLength: 200 }

/** A caller grants at most what it holds: a role whose scopes it does not all have is refused. */
function requireGrantable (request: FastifyRequest, role: Role): void {
  const missing = scopesNotHeld(request.caller, ROLE_SCOPES[role])
  if (missing.length > 0) throw new ApiError('insufficient_scope', `You cannot grant the role '${role}': it holds scopes you do not (${missing.join(', ')}).`, 'role')
}

/** Dashboard users of the caller's tenant (scope users:manage: admins, or a key that holds it). */
export function dashboardUserRoutes (app: FastifyInstance, deps: { dashboard: DashboardAuth, state: StateDb }): void {
  const config = { scope: 'users:manage' }
  const find = async (request: FastifyRequest, id: string) => {
    const u = await getDashboardUser(deps.state, request.caller.tenant, id)
    if (u === undefined) throw notFound('dashboard user', id)
    return u
  }

  app.post<{ Body: { email: string, name: string, role: Role, password: string } }>('/v1/dashboard_users', {
    config,
    schema: {
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['email', 'name', 'role', 'password'],
        properties: { email: EMAIL, name: NAME, role: { type: 'string', enum: [...ROLES] }, password: { type: 'string', minLength: MIN_PASSWORD_LENGTH, maxLength: 256 } }
      }
    }
  }, async request => {
    requireGrantable(request, request.body.role)
    return dashboardUserResource(await deps.dashboard.createUser(request.caller.tenant, request.body, request.caller.actor, request.id))
  })

  app.get<{ Querystring: ListQuery }>('/v1/dashboard_users', { config, schema: { querystring: listQuerySchema } }, async request => {
    const page = await pageOf(scanDashboardUsers(deps.state, request.caller.tenant, request.query.starting_after), () => true, request.query)
    return { object: 'list', url: '/v1/dashboard_users', has_more: page.has_more, data: page.data.map(dashboardUserResource) }
  })

  app.get<{ Params: { id: string } }>('/v1/dashboard_users/:id', { config }, async request => dashboardUserResource(await find(request, request.params.id)))

  app.post<{ Params: { id: string }, Body: { name?: string, role?: Role, status?: 'active' | 'disabled' } }>('/v1/dashboard_users/:id', {
    config,
    schema: {
      body: {
        type: 'object',
        additionalProperties: false,
        minProperties: 1,
        properties: { name: NAME, role: { type: 'string', enum: [...ROLES] }, status: { type: 'string', enum: ['active', 'disabled'] } }
      }
    }
  }, async request => {
    const user = await find(request, request.params.id)
    requireGrantable(request, user.role)
    if (request.body.role !== undefined) requireGrantable(request, request.body.role)
    if (user.id === request.caller.actor && (request.body.role !== undefined || request.body.status === 'disabled')) {
      throw new ApiError('parameter_invalid', 'You cannot change your own role or disable yourself.', request.body.role !== undefined ? 'role' : 'status')
    }
    return dashboardUserResource(await deps.dashboard.updateUser(user, request.body, request.caller.actor, request.id))
  })
}
