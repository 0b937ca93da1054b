import type { ApiErrorBody, Session } from '../api.js'

/** GET /v1/rules/hits: each rule's matches and each rollout pack's current run over the window. */
export interface Hits {
  hits: Record<string, { enforce: number, shadow: number }>
  decisions: number
  packs: Record<string, { rollout_id: string | null, decisions: number, hits: number }>
}

/** An error the page finds before sending, shown next to the field it names, as the API's are. */
export const err = (param: string, message: string): ApiErrorBody => ({ type: 'invalid_request_error', code: 'parameter_invalid', message, param })

/** Who made a change, as the page can say it: "you" for the signed-in user, else the key or user id. */
export const byWhom = (session: Session, actor: string) => actor === session.user.id ? `you (${session.user.name})` : actor
