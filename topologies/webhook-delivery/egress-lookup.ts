import dns from 'node:dns'
import type { LookupFunction } from 'node:net'
import type { EgressPolicy } from '../../src/domain/webhooks/egress-policy.js'

/** A destination the egress policy refuses: its message (with the addresses) is for the service's log only. */
export class EgressRefusedError extends Error {
  readonly code = 'EGRESS_REFUSED'
}

export type Resolve = (hostname: string, options: dns.LookupAllOptions, callback: (err: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void) => void

/**
 * The `lookup` of every delivery connection: resolves the name, keeps only the addresses the egress policy
 * allows and hands those to the socket, which then connects to one of them and nothing else. So a name that
 * resolved to a public address when checked cannot connect to an internal one (DNS rebinding): the check and
 * the connection use the same answer.
 */
export function egressLookup (policy: EgressPolicy, resolve: Resolve = dns.lookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err !== null) { callback(err, ''); return }
      const allowed = addresses.filter(a => policy.addressRefusal(a.address, hostname) === null)
      if (allowed.length === 0) {
        const reasons = addresses.map(a => policy.addressRefusal(a.address, hostname)).join('; ')
        callback(new EgressRefusedError(`${hostname} resolves to no address the egress policy allows: ${reasons === '' ? 'no address' : reasons}`), '')
        return
      }
      if (options.all === true) callback(null, allowed)
      else callback(null, allowed[0]!.address, allowed[0]!.family)
    })
  }
}
