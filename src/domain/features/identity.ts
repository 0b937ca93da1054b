/**
 * Identity features from the email address: its domain, whether the domain hands out throwaway inboxes, whether
 * it is a free webmail provider. The lists are short on purpose (the most used services); tenants extend them
 * with deny lists and rules (`email.endsWith(...)`).
 */
const DISPOSABLE = new Set([
  'mailinator.com', 'guerrillamail.com', 'guerrillamail.net', 'sharklasers.com', '10minutemail.com', 'temp-mail.org', 'tempmail.com',
  'yopmail.com', 'trashmail.com', 'getnada.com', 'dispostable.com', 'maildrop.cc', 'throwawaymail.com', 'fakeinbox.com',
  'mintemail.com', 'mohmal.com', 'emailondeck.com', 'tempail.com', 'mailnesia.com', 'spamgourmet.com', 'tempr.email', 'discard.email'
])
const FREE = new Set([
  'gmail.com', 'googlemail.com', 'yahoo.com', 'hotmail.com', 'outlook.com', 'live.com', 'aol.com', 'icloud.com', 'me.com',
  'proton.me', 'protonmail.com', 'gmx.de', 'gmx.net', 'web.de', 'mail.ru', 'yandex.ru', 'qq.com', '163.com'
])

export function emailDomain (email: string | undefined): string | undefined {
  if (email === undefined) return undefined
  const at = email.lastIndexOf('@')
  return at < 0 ? undefined : email.slice(at + 1).toLowerCase()
}

/**
 * The shape of an email's local part, as a made-up address shows it: its length, its share of digits, and its
 * Shannon entropy in bits per character (a name is repetitive, `x7kq2p9z` is not). Zeros without an email.
 */
export function emailShape (email: string | undefined): { length: number, digits: number, entropy: number } {
  const at = email?.lastIndexOf('@') ?? -1
  const local = at > 0 ? email!.slice(0, at).toLowerCase() : ''
  if (local === '') return { length: 0, digits: 0, entropy: 0 }
  const counts = new Map<string, number>()
  let digits = 0
  for (const c of local) {
    counts.set(c, (counts.get(c) ?? 0) + 1)
    if (c >= '0' && c <= '9') digits++
  }
  let entropy = 0
  for (const n of counts.values()) entropy -= (n / local.length) * Math.log2(n / local.length)
  return { length: local.length, digits: digits / local.length, entropy }
}

export const isDisposableDomain = (domain: string) => DISPOSABLE.has(domain)
export const isFreeMailDomain = (domain: string) => FREE.has(domain)

/**
 * Account age in days at `nowMs`, when the request gives one: custom.account_created (unix seconds) or
 * custom.account_age_days. Undefined when neither is given (or they make no sense).
 */
export function accountAgeDays (custom: Record<string, unknown> | undefined, nowMs: number): number | undefined {
  const created = custom?.account_created
  if (typeof created === 'number' && Number.isFinite(created) && created > 0) return Math.max(0, (nowMs - created * 1000) / 86_400_000)
  const age = custom?.account_age_days
  if (typeof age === 'number' && Number.isFinite(age) && age >= 0) return age
  return undefined
}
