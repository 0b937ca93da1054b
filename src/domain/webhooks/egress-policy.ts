import ipaddr from 'ipaddr.js'

type Address = ipaddr.IPv4 | ipaddr.IPv6

/**
 * Where webhook deliveries may go (docs/webhooks.md#egress-policy): public unicast addresses only, unless the
 * operator's allow-list (WEBHOOK_EGRESS_ALLOW) names the host or a range holding the address. Checked when an
 * endpoint's URL is registered (`urlRefusal`: the URL as written) and again on every connection
 * (`addressRefusal`: each address its host resolved to). Pure: resolving names is the caller's.
 */
export interface EgressPolicy {
  /** Why a registered URL is refused (e.g. "a loopback address (127.0.0.1)"), or null when it may be registered. */
  urlRefusal(url: URL): string | null
  /** Why connecting to `address`, resolved for `host`, is refused, or null when allowed. */
  addressRefusal(address: string, host: string): string | null
}

/** The allow-list's entries, parsed: IP addresses and CIDR ranges, exact host names and `*.suffix` wildcards. */
interface AllowList { ranges: Array<[Address, number]>, names: Set<string>, suffixes: string[] }

const HOST_NAME = /^(?:\*\.)?(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?\.)*[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/

/** Parses WEBHOOK_EGRESS_ALLOW's entries; throws on one that is neither an address, a CIDR range nor a host name. */
export function parseEgressAllowList (entries: readonly string[]): AllowList {
  const allow: AllowList = { ranges: [], names: new Set(), suffixes: [] }
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1')
    if (ipaddr.isValidCIDR(entry)) {
      allow.ranges.push(ipaddr.parseCIDR(entry))
    } else if (ipaddr.isValid(entry)) {
      const address = ipaddr.parse(entry)
      allow.ranges.push([address, address.kind() === 'ipv4' ? 32 : 128])
    } else if (HOST_NAME.test(entry)) {
      if (entry.startsWith('*.')) allow.suffixes.push(entry.slice(1))
      else allow.names.add(entry)
    } else {
      throw new Error(`WEBHOOK_EGRESS_ALLOW: '${raw}' is neither an IP address, a CIDR range nor a host name`)
    }
  }
  return allow
}

/**
 * The special-purpose range an address lies in ('unicast': an ordinary public address). IPv4-mapped
 * (::ffff:a.b.c.d), NAT64 (64:ff9b::/96) and 6to4 (2002::/16) addresses are classified by the IPv4 address they
 * carry; the deprecated IPv4-compatible form (::a.b.c.d) is refused outright.
 */
export function rangeOf (address: Address): string {
  if (address.kind() === 'ipv4') return address.range()
  const v6 = address as ipaddr.IPv6
  const range = v6.range()
  const p = v6.parts
  const embedded = (high: number, low: number) => ipaddr.fromByteArray([high >> 8, high & 0xff, low >> 8, low & 0xff]).range()
  if (range === 'ipv4Mapped') return embedded(p[6]!, p[7]!)
  if (range === 'rfc6052' && p[1] === 0xff9b && p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0) return embedded(p[6]!, p[7]!)
  if (range === '6to4') return embedded(p[1]!, p[2]!)
  if (range === 'unicast' && p.slice(0, 6).every(x => x === 0)) return 'ipv4Compatible'
  return range
}

const RANGE_NAMES: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  uniqueLocal: 'a private address',
  linkLocal: 'a link-local address',
  carrierGradeNat: 'a carrier-grade NAT address',
  unspecified: 'an unspecified address',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
  reserved: 'a reserved or documentation address',
  ipv4Compatible: 'an IPv4-compatible address',
  rfc6145: 'an IPv4-translated address'
}
const described = (range: string, address: Address) => `${RANGE_NAMES[range] ?? `a special-purpose address (${range})`} (${address.toString()})`

/** Names that never resolve to a public receiver: loopback names and special-use domains (RFC 6761, 6762, 8375, 9476). */
const SPECIAL_USE_SUFFIXES = ['localhost', 'local', 'internal', 'localdomain', 'home.arpa', 'arpa', 'test', 'invalid', 'example', 'onion', 'alt']

/** Why a host name (not an address) is refused as written, or null. */
function nameRefusal (name: string): string | null {
  if (name === 'localhost' || name.endsWith('.localhost')) return 'a loopback name'
  if (!name.includes('.')) return 'a single-label name (resolved only by hosts files and search domains)'
  const suffix = SPECIAL_USE_SUFFIXES.find(s => name === s || name.endsWith(`.${s}`))
  return suffix === undefined ? null : `a name under the special-use domain .${suffix}`
}

/** An address literal in any form the WHATWG URL parser leaves (IPv6 in brackets), or undefined for a name. */
function literal (hostname: string): Address | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname
  return ipaddr.isValid(bare) ? ipaddr.parse(bare) : undefined
}

export function egressPolicy (entries: readonly string[]): EgressPolicy {
  const allow = parseEgressAllowList(entries)
  const nameAllowed = (host: string) => {
    const name = host.toLowerCase().replace(/\.$/, '')
    return allow.names.has(name) || allow.suffixes.some(s => name.endsWith(s))
  }
  const inAllowedRange = (address: Address) => allow.ranges.some(([network, bits]) => {
    if (network.kind() === address.kind()) return address.match(network, bits)
    // An IPv4 range also holds the IPv4-mapped form of its addresses, and an IPv6 range the mapped form of an IPv4 address.
    if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) return (address as ipaddr.IPv6).toIPv4Address().match(network, bits)
    if (address.kind() === 'ipv4') return (address as ipaddr.IPv4).toIPv4MappedAddress().match(network, bits)
    return false
  })
  const refusalOf = (address: Address): string | null => {
    if (inAllowedRange(address)) return null
    const range = rangeOf(address)
    return range === 'unicast' ? null : described(range, address)
  }
  return {
    urlRefusal (url) {
      const address = literal(url.hostname)
      if (address !== undefined) return refusalOf(address)
      if (nameAllowed(url.hostname)) return null
      return nameRefusal(url.hostname.toLowerCase().replace(/\.$/, ''))
    },
    addressRefusal (address, host) {
      if (nameAllowed(host)) return null
      if (!ipaddr.isValid(address)) return `not an IP address (${address})`
      return refusalOf(ipaddr.parse(address))
    }
  }
}
