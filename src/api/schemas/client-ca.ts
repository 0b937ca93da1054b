import { define } from './named.js'
import { object, str, time } from './fields.js'

export const ClientCa = define('ClientCa', {
  description: 'The CA that signs the tenant\u2019s client certificates on the mutual-TLS listener.',
  type: 'object',
  required: ['object', 'subject', 'fingerprint256', 'valid_to', 'uploaded', 'server_certificate_sha256'],
  properties: {
    object: object('client_ca'),
    subject: str(),
    fingerprint256: str(),
    valid_to: str('As the certificate says it (e.g. "Nov 27 00:00:00 2027 GMT").'),
    uploaded: time(),
    server_certificate_sha256: { type: ['string', 'null'], description: 'The listener\u2019s own certificate, to pin.' }
  }
})
