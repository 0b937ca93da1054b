import { ROLES } from '../../domain/dashboard/roles.js'
import { define, listOf } from './named.js'
import { object, oneOf, str, time } from './fields.js'

export const DashboardUser = define('DashboardUser', {
  description: 'A person who signs in to the dashboard.',
  type: 'object',
  required: ['object', 'id', 'email', 'name', 'role', 'status', 'created'],
  properties: {
    object: object('dashboard_user'),
    id: str(),
    email: str(),
    name: str(),
    role: oneOf(ROLES),
    status: oneOf(['active', 'disabled']),
    created: time()
  }
})
export const DashboardUserList = listOf(DashboardUser)
