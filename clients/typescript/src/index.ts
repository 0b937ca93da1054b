export { createClient, ok, type ClientOptions, type FraudClient } from './client.js'
export { FraudApiError, FraudConnectionError, type ErrorBody } from './errors.js'
export { listAll } from './pagination.js'
export { verifyWebhook, WebhookSignatureError, SIGNATURE_HEADER, type WebhookEvent } from './webhooks.js'
export type { paths, components, operations } from './schema.js'
/** The resources by name, as the document defines them (Decision, Case, WebhookEndpoint, ...). */
export type Schemas = import('./schema.js').components['schemas']
