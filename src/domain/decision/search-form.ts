import { isIP } from 'node:net'
import type { Subject } from './types.js'

/**
 * The form in which a subject's value is indexed and searched (GET /v1/transactions): an email in lower case
 * (`Ada@Example.com` finds `ada@example.com`); an IPv6 address in its canonical text (lower case, leading zeros
 * dropped, the longest run of zero groups as `::`, as a URL writes its host), so `2001:DB8:0:0::1` finds
 * `2001:db8::1`; every other value exactly as sent.
 */
export function searchForm (subject: Subject, value: string): string {
  if (subject === 'email') return value.toLowerCase()
  if (subject !== 'ip' || isIP(value) !== 6) return value
  try {
    return new URL(`http://[${value}]`).hostname.slice(1, -1)
  } catch {
    return value // a zone id (fe80::1%eth0), which URLs do not take: as sent
  }
}
