import { X509Certificate } from 'node:crypto'
import type { TLSSocket } from 'node:tls'
import type { FastifyRequest } from 'fastify'
import { clientCaKey } from '../stores/client-cas.js'
import type { StateDb } from '../stores/state-db.js'
import { principalScope, type Principal } from '../services/auth.js'
import { ApiError } from '../services/errors.js'
import type { ClientCaRecord } from '../domain/records/client-cas.js'

/**
 * On the mutual-TLS listener: the TLS handshake asks every client for a certificate (without judging it, as
 * the trusted CA depends on the tenant); once the API key names the tenant, the certificate must be valid now
 * and signed by the CA that tenant uploaded. API keys stay required.
 */
export async function requireClientCertificate (state: StateDb, request: FastifyRequest, principal: Principal): Promise<void> {
  const socket = request.raw.socket as TLSSocket
  const peer = typeof socket.getPeerX509Certificate === 'function' ? socket.getPeerX509Certificate() : undefined
  if (peer === undefined) throw new ApiError('client_certificate_required', 'This endpoint requires a client certificate (mutual TLS).')
  const raw = await state.get(clientCaKey(principalScope(principal)))
  if (raw === undefined) throw new ApiError('mtls_not_configured', 'Upload a client CA (POST /v1/mtls/client_ca) before using the mutual-TLS endpoint.')
  const ca = new X509Certificate((JSON.parse(raw.toString()) as ClientCaRecord).certificate)
  const now = Date.now()
  const valid = peer.checkIssued(ca) && peer.verify(ca.publicKey) && Date.parse(peer.validFrom) <= now && now <= Date.parse(peer.validTo)
  if (!valid) throw new ApiError('client_certificate_invalid', "The client certificate is not signed by this tenant's client CA, or is not valid now.")
}
