import { LRUCache } from 'lru-cache'
import { RateLimiter } from './rate-limit.js'

/** Consecutive failed sign-ins of one email that lock it. */
export const MAX_FAILED_LOGINS = 5
/** How long a locked email stays locked, right password or not. */
export const LOCKOUT_MS = 15 * 60_000

/**
 * Sign-in throttling of one instance (OWASP's authentication cheat sheet): each client address gets 10 attempts a
 * minute (bursts of 10), and an email with MAX_FAILED_LOGINS failures in a row is locked for LOCKOUT_MS. A success
 * clears the count. In memory, per instance: behind a load balancer each instance counts its own share, which
 * still bounds guessing to a few attempts a minute per instance and email.
 */
export class LoginThrottle {
  private readonly perAddress = new RateLimiter(10 / 60, 10)
  private readonly failures = new LRUCache<string, { count: number, lockedUntilMs: number }>({ max: 100_000 })

  /** ms until this attempt may be made, 0 when it may be now (each call from an address spends its budget). */
  check (email: string, address: string, nowMs: number): number {
    const locked = this.failures.get(email)
    if (locked !== undefined && locked.lockedUntilMs > nowMs) return locked.lockedUntilMs - nowMs
    const turn = this.perAddress.take(address, nowMs)
    return turn.allowed ? 0 : turn.retryAfterMs
  }

  /** Records a failed attempt; true when it locked the email. */
  failed (email: string, nowMs: number): boolean {
    const f = this.failures.get(email) ?? { count: 0, lockedUntilMs: 0 }
    f.count = f.lockedUntilMs !== 0 && f.lockedUntilMs <= nowMs ? 1 : f.count + 1
    if (f.lockedUntilMs <= nowMs) f.lockedUntilMs = 0
    const locks = f.count >= MAX_FAILED_LOGINS && f.lockedUntilMs === 0
    if (locks) f.lockedUntilMs = nowMs + LOCKOUT_MS
    this.failures.set(email, f)
    return locks
  }

  succeeded (email: string): void { this.failures.delete(email) }
}
