import { createHash, randomBytes } from 'node:crypto'
import { hash, verify } from '@node-rs/argon2'
import type { Core } from './core.js'
import type { Principal } from './auth.js'
import { ApiError } from './errors.js'
import { LoginThrottle } from './login-throttle.js'
import { publishChange } from './publish-change.js'
import { newId } from '../domain/ids.js'
import { sameBytes } from '../domain/same-bytes.js'
import { ROLE_SCOPES, type Role } from '../domain/dashboard/roles.js'
import { needsTouch, sessionEnded, type SessionLimits } from '../domain/dashboard/session-expiry.js'
import { dashboardUserChangeRecord, type DashboardUser } from '../domain/records/dashboard-users.js'
import { dashboardSessionChangeRecord, type DashboardSession } from '../domain/records/dashboard-sessions.js'
import { findDashboardUsersByEmail, findTenantUserByEmail, getDashboardUser, hasDashboardUsers } from '../stores/dashboard-users.js'
import { getDashboardSession, sessionId } from '../stores/dashboard-sessions.js'
import { stateKey, TAG } from '../stores/keys.js'
import { writeBatchSync } from '../stores/rocks.js'

export type DashboardDeps = Pick<Core, 'state' | 'log' | 'topics' | 'dashboardUsers' | 'dashboardSessions' | 'audit' | 'clock'>

export interface SignedIn { principal: Principal, session: DashboardSession, user: DashboardUser }

export interface NewUser { email: string, name: string, role: Role, password: string }

/** Passwords: at least 12 characters (NIST SP 800-63B allows 8; a review queue of fraud cases deserves more). */
export const MIN_PASSWORD_LENGTH = 12

const SETUP_META = 'dashboard_setup'
const sha256 = (text: string) => createHash('sha256').update(text).digest()
/** Account events (sign-in, users) are recorded in the live mode's audit trail: a user acts in both modes. */
const ACCOUNT_MODE = 'live'

/**
 * Dashboard identity: users with argon2id passwords on the `dashboard-users` topic, sessions on
 * `dashboard-sessions` (both materialized on every instance, so any instance behind a load balancer knows
 * them), sign-in throttling and lockout, and the one-time setup link that creates a fresh deployment's first
 * admin. A session acts through the API's own routes with its user's role's scopes (roles.ts).
 */
export class DashboardAuth {
  private readonly throttle = new LoginThrottle()
  /** When this instance last saw each session used: between the touches that are written. */
  private readonly lastSeen = new Map<string, number>()
  /** A hash to verify against when the email is unknown, so the answer takes as long either way. */
  private dummyHash: Promise<string> | undefined

  constructor (private readonly core: DashboardDeps, readonly limits: SessionLimits) {}

  async signIn (email: string, password: string, address: string, traceId: string): Promise<{ secret: string, signedIn: SignedIn }> {
    const now = this.core.clock()
    const normalized = email.trim().toLowerCase()
    const waitMs = this.throttle.check(normalized, address, now)
    if (waitMs > 0) throw new ApiError('login_throttled', 'Too many sign-in attempts. Try again later.', undefined, undefined, Math.ceil(waitMs / 1000))
    // The same email may sign in to several tenants: the password says which (each user sets their own).
    const users = await findDashboardUsersByEmail(this.core.state, normalized)
    let user: DashboardUser | undefined
    for (const candidate of users) if (candidate.status === 'active' && await verify(candidate.password_hash, password)) { user = candidate; break }
    if (users.length === 0) await verify(await (this.dummyHash ??= hash(randomBytes(16).toString('hex'))), password)
    if (user === undefined) {
      if (users.length > 0) {
        const locked = this.throttle.failed(normalized, now)
        for (const u of users) await this.audit(u, locked ? 'dashboard_user.locked' : 'dashboard_user.login_failed', traceId, { address })
      }
      throw new ApiError('invalid_credentials', 'Wrong email or password.')
    }
    this.throttle.succeeded(normalized)
    const secret = randomBytes(32).toString('base64url')
    const session: DashboardSession = {
      id: sessionId(secret), user_id: user.id, tenant_id: user.tenant_id, created_ms: now, seen_ms: now,
      csrf_token: randomBytes(24).toString('base64url'), ended_ms: null
    }
    await this.saveSession(session)
    await this.audit(user, 'dashboard_user.logged_in', traceId, { address })
    return { secret, signedIn: { principal: principalOf(user, 'test'), session, user } }
  }

  /** The user a session cookie signs in, acting in `mode`; undefined when it is unknown or over. */
  async authenticate (secret: string, mode: 'live' | 'test'): Promise<SignedIn | undefined> {
    const id = sessionId(secret)
    const session = await getDashboardSession(this.core.state, id)
    if (session === undefined) return undefined
    const now = this.core.clock()
    if (sessionEnded(session, this.lastSeen.get(id) ?? 0, now, this.limits) !== undefined) { this.lastSeen.delete(id); return undefined }
    const user = await getDashboardUser(this.core.state, session.tenant_id, session.user_id)
    if (user === undefined || user.status !== 'active') return undefined
    this.lastSeen.set(id, now)
    if (needsTouch(session, now, this.limits)) await this.saveSession({ ...session, seen_ms: now })
    return { principal: principalOf(user, mode), session, user }
  }

  /** Whether a change request carries its session's CSRF token. */
  csrfMatches (session: DashboardSession, token: string | undefined): boolean {
    return token !== undefined && sameBytes(Buffer.from(token), Buffer.from(session.csrf_token))
  }

  async signOut (signedIn: SignedIn, traceId: string): Promise<void> {
    await this.saveSession({ ...signedIn.session, ended_ms: this.core.clock() })
    this.lastSeen.delete(signedIn.session.id)
    await this.audit(signedIn.user, 'dashboard_user.logged_out', traceId, {})
  }

  /** Creates a user of `tenant`; 409 resource_exists when the email is taken in this tenant (other tenants' users are not looked at). */
  async createUser (tenant: string, input: NewUser, actor: string, traceId: string): Promise<DashboardUser> {
    const email = input.email.trim().toLowerCase()
    if (await findTenantUserByEmail(this.core.state, tenant, email) !== undefined) throw new ApiError('resource_exists', 'A user of this account has this email.', 'email')
    checkPassword(input.password)
    const now = this.core.clock()
    const user: DashboardUser = { id: newId('usr', now), tenant_id: tenant, email, name: input.name, role: input.role, password_hash: await hash(input.password), status: 'active', created_ms: now }
    await this.saveUser(user)
    const saved = await getDashboardUser(this.core.state, tenant, user.id)
    if (saved === undefined) throw new ApiError('resource_exists', 'A user of this account has this email.', 'email')
    await this.core.audit.record({ tenant_id: tenant, mode: ACCOUNT_MODE, actor, action: 'dashboard_user.created', object_type: 'dashboard_user', object_id: user.id, trace_id: traceId, data: { email, role: user.role } })
    return saved
  }

  /** Changes a user's role or status (disabling ends their sessions at their next request). */
  async updateUser (user: DashboardUser, change: Partial<Pick<DashboardUser, 'role' | 'status' | 'name'>>, actor: string, traceId: string): Promise<DashboardUser> {
    const updated = { ...user, ...change }
    await this.saveUser(updated)
    await this.core.audit.record({ tenant_id: user.tenant_id, mode: ACCOUNT_MODE, actor, action: 'dashboard_user.updated', object_type: 'dashboard_user', object_id: user.id, trace_id: traceId, data: change })
    return updated
  }

  /**
   * A one-time token that creates the first admin of `tenant`, or undefined when it has users. Issued at each
   * start until then (a new one replaces the last); only its hash is kept.
   */
  async issueSetupToken (tenant: string): Promise<string | undefined> {
    if (await hasDashboardUsers(this.core.state, tenant)) return undefined
    const token = randomBytes(24).toString('base64url')
    writeBatchSync(this.core.state.db, [{ type: 'put', key: stateKey(TAG.meta, SETUP_META), value: Buffer.from(JSON.stringify({ tenant, hash: sha256(token).toString('hex') })) }], true)
    return token
  }

  /** Creates the first admin with the setup token, which is then spent. */
  async setUp (token: string, input: Omit<NewUser, 'role'>, traceId: string): Promise<DashboardUser> {
    const key = stateKey(TAG.meta, SETUP_META)
    const raw = await this.core.state.get(key)
    const setup = raw === undefined ? undefined : JSON.parse(raw.toString()) as { tenant: string, hash: string }
    const given = sha256(token)
    if (setup === undefined || !sameBytes(given, Buffer.from(setup.hash, 'hex')) || await hasDashboardUsers(this.core.state, setup.tenant)) {
      throw new ApiError('invalid_setup_token', 'This setup link is not valid (already used, or replaced by a newer one).', 'token')
    }
    const user = await this.createUser(setup.tenant, { ...input, role: 'admin' }, 'dashboard-setup', traceId)
    writeBatchSync(this.core.state.db, [{ type: 'del', key }], true)
    return user
  }

  private async saveUser (user: DashboardUser): Promise<void> {
    const change = { user, change_id: newId('chg') }
    await publishChange(this.core.log, this.core.topics.dashboardUsers, this.core.dashboardUsers, change.change_id, dashboardUserChangeRecord(change))
  }

  private async saveSession (session: DashboardSession): Promise<void> {
    const change = { session, change_id: newId('chg') }
    await publishChange(this.core.log, this.core.topics.dashboardSessions, this.core.dashboardSessions, change.change_id, dashboardSessionChangeRecord(change))
  }

  private async audit (user: DashboardUser, action: string, traceId: string, data: Record<string, unknown>): Promise<void> {
    await this.core.audit.record({ tenant_id: user.tenant_id, mode: ACCOUNT_MODE, actor: user.id, action, object_type: 'dashboard_user', object_id: user.id, trace_id: traceId, data })
  }
}

export function checkPassword (password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) throw new ApiError('parameter_invalid', `The password must be at least ${MIN_PASSWORD_LENGTH} characters long.`, 'password')
}

/** What a user acts as: their id as the actor, their role's scopes, their tenant, the mode the dashboard shows. */
export const principalOf = (user: DashboardUser, mode: 'live' | 'test'): Principal =>
  ({ actor: user.id, name: user.name, scopes: ROLE_SCOPES[user.role], tenant: user.tenant_id, mode })
