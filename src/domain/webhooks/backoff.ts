/** At most this many attempts per delivery, all within 24 h. */
export const MAX_ATTEMPTS = 12

/**
 * Wait before attempt 2..12 (ms): 30 s, 1, 2, 5, 10, 20, 40 min, 1, 2, 4, 8 h: 16.3 h in total; with the
 * +-20 % jitter at most 19.6 h, so the 12th attempt happens within 24 h of the first.
 */
export const RETRY_DELAYS_MS: readonly number[] = [30e3, 60e3, 120e3, 300e3, 600e3, 1200e3, 2400e3, 3600e3, 7200e3, 14400e3, 28800e3]

/** When the attempt after `attemptsMade` failed ones happens, or null when none is left. Pure. */
export function nextAttemptAt (attemptsMade: number, lastAttemptMs: number, random: number, scale = 1): number | null {
  if (attemptsMade >= MAX_ATTEMPTS) return null
  const base = RETRY_DELAYS_MS[attemptsMade - 1]!
  return lastAttemptMs + Math.round(base * (0.8 + 0.4 * random) * scale)
}
