import { deliveryRecord } from './webhook-deliveries.js'

/** The `webhook-dead-letters` topic carries a delivery that failed for good, as `webhook-deliveries` does. */
export const deadDeliveryRecord = deliveryRecord
