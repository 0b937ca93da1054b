import type { ListItemType } from '../decision/types.js'

/**
 * The one form in which list items and the request values checked against them are compared (docs/rules.md,
 * "How list values compare"), so that a deny-listed value cannot be sidestepped by writing it another way:
 * - every type: Unicode NFKC (full-width letters, ligatures and compatibility forms fold to their plain form),
 *   invisible format characters removed (zero-width space and joiners, word joiner, BOM, soft hyphen), and
 *   white space trimmed at both ends;
 * - user ids, device ids, emails and countries: case-folded (`BADUSER` is `baduser`);
 * - emails: a `+tag` after the local part is dropped (`fraud+1@example.com` is `fraud@example.com`); dots stay,
 *   since only some providers ignore them;
 * - cards, IP addresses and free strings keep their case (card fingerprints are often base64).
 */
export function canonicalValue (type: ListItemType, value: string): string {
  let v = value.normalize('NFKC').replace(INVISIBLE, '').trim()
  if (CASE_INSENSITIVE.has(type)) v = v.toLowerCase()
  if (type === 'email') v = withoutPlusTag(v)
  return v
}

const INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\uFEFF]/g
const CASE_INSENSITIVE: ReadonlySet<ListItemType> = new Set(['user_id', 'device_id', 'email', 'country'])

function withoutPlusTag (email: string): string {
  const at = email.lastIndexOf('@')
  if (at < 0) return email
  const plus = email.indexOf('+')
  return plus > 0 && plus < at ? email.slice(0, plus) + email.slice(at) : email
}
