import { describe, expect, it } from 'vitest'
import { egressPolicy, parseEgressAllowList } from '../../src/domain/webhooks/egress-policy.js'
import { DELIVERY_ERRORS, deliveryErrorCategory, shownDeliveryError } from '../../src/domain/webhooks/delivery-errors.js'
import { loadConfig } from '../../src/app/config.js'

const refusal = (url: string, allow: string[] = []) => egressPolicy(allow).urlRefusal(new URL(url))

/**
 * Every internal destination of issue 33 (19 of its 31 were accepted before), as a tenant would write it, with
 * what the registration check must answer. The WHATWG parser normalizes the host first (as the route does).
 */
export const INTERNAL_URLS: ReadonlyArray<[string, RegExp]> = [
  ['https://127.0.0.1:8080/', /loopback address \(127\.0\.0\.1\)/],
  ['https://127.0.0.1:22/', /loopback/],
  ['https://127.0.0.1:9464/metrics', /loopback/],
  ['https://127.0.0.1:50051/', /loopback/],
  ['https://127.255.255.254/', /loopback/],
  ['https://localhost/', /loopback name/],
  ['https://LOCALHOST./hooks', /loopback name/],
  ['https://api.localhost/', /loopback name/],
  ['https://ｌｏｃａｌｈｏｓｔ/', /loopback name/],
  ['https://vm/', /single-label/],
  ['https://runsc:8080/', /single-label/],
  ['https://[::1]/', /loopback address \(::1\)/],
  ['https://0.0.0.0/', /unspecified/],
  ['https://0/', /unspecified/],
  ['https://[::]/', /unspecified/],
  ['https://169.254.169.254/latest/meta-data/', /link-local/],
  ['https://[fe80::1]/', /link-local/],
  ['https://10.0.0.1/', /private address \(10\.0\.0\.1\)/],
  ['https://172.16.0.1/', /private/],
  ['https://172.31.255.255/', /private/],
  ['https://192.168.1.1/', /private/],
  ['https://[fd00::1]/', /private address \(fd00::1\)/],
  ['https://[fc00::1]/', /private/],
  ['https://100.64.0.1/', /carrier-grade NAT/],
  ['https://224.0.0.1/', /multicast/],
  ['https://[ff02::1]/', /multicast/],
  ['https://255.255.255.255/', /broadcast/],
  ['https://192.0.2.1/', /reserved or documentation/],
  ['https://198.18.0.1/', /reserved/],
  ['https://240.0.0.1/', /reserved/],
  ['https://[2001:db8::1]/', /reserved/],
  ['https://2130706433/', /loopback address \(127\.0\.0\.1\)/],
  ['https://0x7f000001/', /loopback address \(127\.0\.0\.1\)/],
  ['https://0177.0.0.1/', /loopback address \(127\.0\.0\.1\)/],
  ['https://127.1/', /loopback address \(127\.0\.0\.1\)/],
  ['https://0x7f.1/', /loopback/],
  ['https://127.0.0.1./', /loopback/],
  ['https://%31%32%37.0.0.1/', /loopback/],
  ['https://167772161/', /private address \(10\.0\.0\.1\)/],
  ['https://[::ffff:127.0.0.1]/', /loopback address \(::ffff:7f00:1\)/],
  ['https://[::ffff:7f00:1]/', /loopback/],
  ['https://[::ffff:169.254.169.254]/', /link-local/],
  ['https://[::ffff:10.0.0.1]/', /private/],
  ['https://[::127.0.0.1]/', /IPv4-compatible/],
  ['https://[::ffff:0:7f00:1]/', /IPv4-translated/],
  ['https://[64:ff9b::127.0.0.1]/', /loopback/],
  ['https://[64:ff9b::10.0.0.1]/', /private/],
  ['https://[64:ff9b:1::1]/', /special-purpose/],
  ['https://[2002:7f00:1::]/', /loopback/],
  ['https://[2002:a9fe:a9fe::]/', /link-local/],
  ['https://[2001::1]/', /reserved|teredo/],
  ['https://metadata.google.internal/computeMetadata/v1/', /special-use domain \.internal/],
  ['https://printer.local/', /\.local$/],
  ['https://router.home.arpa/', /\.home\.arpa$/],
  ['https://1.0.0.127.in-addr.arpa/', /\.arpa$/],
  ['https://hooks.test/', /\.test$/]
]

describe('webhook egress policy: registration', () => {
  it.each(INTERNAL_URLS)('refuses %s', (url, reason) => {
    expect(refusal(url)).toMatch(reason)
  })

  it('accepts public hosts, names and addresses, including NAT64 and 6to4 forms of public IPv4', () => {
    for (const url of ['https://example.com/hooks', 'https://hooks.example.com:8443/x', 'https://8.8.8.8/', 'https://1.1.1.1:443/',
      'https://[2606:4700:4700::1111]/', 'https://[64:ff9b::8.8.8.8]/', 'https://[2002:808:808::]/', 'https://172.32.0.1/', 'https://100.128.0.1/', 'https://xn--bcher-kva.com/']) {
      expect(refusal(url), url).toBeNull()
    }
  })

  it('lets the operator allow-list through by name, suffix, address or range, and nothing more', () => {
    const allow = ['localhost', '*.corp.example.com', '10.0.0.0/8', '127.0.0.2', 'fd12::/16']
    expect(refusal('https://localhost:8443/', allow)).toBeNull()
    expect(refusal('https://LocalHost./', allow)).toBeNull()
    expect(refusal('https://hooks.corp.example.com/', allow)).toBeNull()
    expect(refusal('https://a.b.corp.example.com/', allow)).toBeNull()
    expect(refusal('https://10.200.0.1/', allow)).toBeNull()
    expect(refusal('https://[::ffff:10.200.0.1]/', allow)).toBeNull()
    expect(refusal('https://127.0.0.2/', allow)).toBeNull()
    expect(refusal('https://[fd12::5]/', allow)).toBeNull()
    // Not named: still refused.
    expect(refusal('https://corp.example.com.internal/', allow)).toMatch(/internal/)
    expect(refusal('https://127.0.0.1/', allow)).toMatch(/loopback/)
    expect(refusal('https://[::1]/', allow)).toMatch(/loopback/)
    expect(refusal('https://api.localhost/', allow)).toMatch(/loopback/)
    expect(refusal('https://169.254.169.254/', allow)).toMatch(/link-local/)
    expect(refusal('https://[fd13::5]/', allow)).toMatch(/private/)
  })

  it('refuses an allow-list entry that is neither a name, an address nor a range, naming the variable', () => {
    for (const bad of ['http://x', '10.0.0.0/33', 'a b', '-bad-.com', '*.', '*']) expect(() => parseEgressAllowList([bad]), bad).toThrow(/WEBHOOK_EGRESS_ALLOW/)
    expect(() => loadConfig({ WEBHOOK_EGRESS_ALLOW: 'localhost, 10.0.0.0/33' })).toThrow(/WEBHOOK_EGRESS_ALLOW: '10.0.0.0\/33'/)
    expect(loadConfig({ WEBHOOK_EGRESS_ALLOW: 'localhost, 10.0.0.0/8,[::1]' }).webhookEgressAllow).toEqual(['localhost', '10.0.0.0/8', '[::1]'])
  })

  it('allows nothing internal by default (npm start sets no allow-list)', () => {
    expect(loadConfig({}).webhookEgressAllow).toEqual([])
  })
})

describe('webhook egress policy: each resolved address', () => {
  const policy = egressPolicy(['localhost', '10.1.0.0/16'])
  it('refuses what a public-looking name resolves to when that is internal (DNS rebinding)', () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '169.254.169.254', '10.0.0.1', '192.168.0.10', 'fd00::1', '0.0.0.0', '100.100.100.200', '64:ff9b::a9fe:a9fe']) {
      expect(policy.addressRefusal(address, 'hooks.example.com'), address).not.toBeNull()
    }
    expect(policy.addressRefusal('93.184.215.14', 'hooks.example.com')).toBeNull()
    expect(policy.addressRefusal('2606:2800:21f:cb07:6820:80da:af6b:8b2c', 'hooks.example.com')).toBeNull()
  })

  it('allows what an allow-listed name resolves to, and addresses in an allowed range whatever the name', () => {
    expect(policy.addressRefusal('127.0.0.1', 'localhost')).toBeNull()
    expect(policy.addressRefusal('::1', 'localhost.')).toBeNull()
    expect(policy.addressRefusal('10.1.2.3', 'hooks.example.com')).toBeNull()
    expect(policy.addressRefusal('::ffff:10.1.2.3', 'hooks.example.com')).toBeNull()
    expect(policy.addressRefusal('10.2.0.1', 'hooks.example.com')).toMatch(/private/)
  })
})

describe('delivery errors', () => {
  it('maps every socket error to a neutral category, whatever address or port it names', () => {
    const cases: Array<[string | undefined, string, string]> = [
      ['ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:22', DELIVERY_ERRORS.connection],
      ['ECONNRESET', 'socket hang up', DELIVERY_ERRORS.connection],
      ['EHOSTUNREACH', 'connect EHOSTUNREACH 10.0.0.7:443', DELIVERY_ERRORS.connection],
      ['EPROTO', 'write EPROTO 40A8:error:0A00010B:SSL routines:ssl3_get_record:wrong version number', DELIVERY_ERRORS.tls],
      ['ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames", DELIVERY_ERRORS.tls],
      ['DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate', DELIVERY_ERRORS.tls],
      ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unable to verify the first certificate', DELIVERY_ERRORS.tls],
      ['ENOTFOUND', 'getaddrinfo ENOTFOUND intranet.corp', DELIVERY_ERRORS.refused],
      ['EAI_AGAIN', 'getaddrinfo EAI_AGAIN hooks.example.com', DELIVERY_ERRORS.refused],
      ['EGRESS_REFUSED', 'hooks.example.com resolves to no address the egress policy allows: a loopback address (127.0.0.1)', DELIVERY_ERRORS.refused],
      ['ETIMEDOUT', 'connect ETIMEDOUT 10.0.0.9:443', DELIVERY_ERRORS.timeout]
    ]
    for (const [code, message, category] of cases) {
      expect(deliveryErrorCategory(code, message), message).toBe(category)
      // As a delivery recorded before errors were neutral stored it (the policy's own message never is).
      if (code !== 'EGRESS_REFUSED') expect(shownDeliveryError(message), message).toBe(category)
    }
  })

  it('shows the neutral categories, HTTP statuses and the service\'s own reasons as they are', () => {
    for (const kept of [...Object.values(DELIVERY_ERRORS), 'HTTP 500', 'HTTP 302', 'endpoint deleted', 'endpoint disabled (the receiver answered 410 Gone)', 'endpoint disabled']) {
      expect(shownDeliveryError(kept)).toBe(kept)
    }
    expect(shownDeliveryError(null)).toBeNull()
    expect(shownDeliveryError('timeout after 5000 ms')).toBe(DELIVERY_ERRORS.timeout)
  })
})
