import { X509Certificate } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { Core } from '../../services/core.js'
import { newId } from '../../domain/ids.js'
import { clientCaKey } from '../../stores/client-cas.js'
import { ApiError, notFound } from '../../services/errors.js'
import { publishChange } from '../../services/publish-change.js'
import { type ClientCaRecord, clientCaRecord } from '../../domain/records/client-cas.js'
function caResource (r: ClientCaRecord, serverFingerprint: string | null) {
  const cert = new X509Certificate(r.certificate)
  return { object: 'client_ca', subject: cert.subject, fingerprint256: cert.fingerprint256, valid_to: cert.validTo, uploaded: Math.floor(r.uploaded_ms / 1000), server_certificate_sha256: serverFingerprint }
}

/** Upload and read the tenant's client CA for the mutual-TLS endpoint, per mode like every object (scope keys:manage). */
export function mtlsRoutes (app: FastifyInstance, core: Pick<Core, 'audit' | 'clientCas' | 'clock' | 'log' | 'mtlsServerFingerprint' | 'state' | 'topics'>): void {
  const serverFingerprint = () => core.mtlsServerFingerprint ?? null
  app.post<{ Body: { certificate: string } }>('/v1/mtls/client_ca', {
    config: { scope: 'keys:manage' },
    schema: { body: { type: 'object', additionalProperties: false, required: ['certificate'], properties: { certificate: { type: 'string', minLength: 1, maxLength: 20000 } } } }
  }, async request => {
    const p = request.caller
    let cert: X509Certificate
    try {
      cert = new X509Certificate(request.body.certificate)
    } catch {
      throw new ApiError('parameter_invalid', "'certificate' is not a PEM X.509 certificate.", 'certificate')
    }
    if (!cert.ca) throw new ApiError('parameter_invalid', "'certificate' is not a CA certificate (basicConstraints CA:TRUE).", 'certificate')
    const record: ClientCaRecord = { tenant_id: p.tenant, mode: p.mode, certificate: request.body.certificate, uploaded_ms: core.clock(), change_id: newId('chg') }
    await publishChange(core.log, core.topics.clientCas, core.clientCas, record.change_id, clientCaRecord(record))
    await core.audit.record({ tenant_id: p.tenant, mode: p.mode, actor: p.actor, action: 'client_ca.uploaded', object_type: 'client_ca', object_id: p.tenant, trace_id: request.id, data: { subject: cert.subject, fingerprint256: cert.fingerprint256 } })
    return caResource(record, serverFingerprint())
  })

  app.get('/v1/mtls/client_ca', { config: { scope: 'keys:manage' } }, async request => {
    const raw = await core.state.get(clientCaKey(request.scope))
    if (raw === undefined) throw notFound('client CA', request.caller.tenant)
    return caResource(JSON.parse(raw.toString()) as ClientCaRecord, serverFingerprint())
  })
}
