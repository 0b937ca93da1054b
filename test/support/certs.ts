import * as x509 from '@peculiar/x509'

/** Test PKI generated in the test run: a CA, and server or client certificates it signs (ECDSA P-256). */
x509.cryptoProvider.set(globalThis.crypto)
const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' }
const day = 86_400_000

export interface Issued { cert: string, key: string }
export interface TestCa { cert: string, subject: string, keys: CryptoKeyPair }

async function keyPem (key: CryptoKey): Promise<string> {
  const der = Buffer.from(await globalThis.crypto.subtle.exportKey('pkcs8', key))
  return `-----BEGIN PRIVATE KEY-----\n${der.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n?$/, '\n')}-----END PRIVATE KEY-----\n`
}

const serial = () => Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(8))).toString('hex').replace(/^[89a-f]/, '1')

export async function makeCa (name: string): Promise<TestCa> {
  const keys = await globalThis.crypto.subtle.generateKey(alg, true, ['sign', 'verify']) as CryptoKeyPair
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=${name}`,
    notBefore: new Date(Date.now() - day),
    notAfter: new Date(Date.now() + 30 * day),
    keys,
    signingAlgorithm: alg,
    extensions: [new x509.BasicConstraintsExtension(true, undefined, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true)]
  })
  return { cert: cert.toString('pem'), subject: cert.subject, keys }
}

/** A leaf certificate signed by `ca`: for servers on localhost/127.0.0.1, or for clients. */
export async function issue (ca: TestCa, cn: string, usage: 'server' | 'client'): Promise<Issued> {
  const keys = await globalThis.crypto.subtle.generateKey(alg, true, ['sign', 'verify']) as CryptoKeyPair
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: `CN=${cn}`,
    issuer: ca.subject,
    notBefore: new Date(Date.now() - day),
    notAfter: new Date(Date.now() + 30 * day),
    signingKey: ca.keys.privateKey,
    publicKey: keys.publicKey,
    signingAlgorithm: alg,
    extensions: [
      new x509.BasicConstraintsExtension(false),
      new x509.ExtendedKeyUsageExtension([usage === 'server' ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth]),
      ...(usage === 'server' ? [new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: 'localhost' }, { type: 'ip', value: '127.0.0.1' }])] : [])
    ]
  })
  return { cert: cert.toString('pem'), key: await keyPem(keys.privateKey) }
}
