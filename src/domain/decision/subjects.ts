import type { ScoreRequest, Subject } from './types.js'

export const SUBJECTS: readonly Subject[] = ['user_id', 'email', 'device_id', 'ip', 'card']

/** The request's value for a subject; `card` is the custom key `card_fingerprint`. */
export function subjectValue (request: ScoreRequest, subject: Subject): string | undefined {
  if (subject !== 'card') return request[subject]
  const card = request.custom?.card_fingerprint
  return typeof card === 'string' ? card : undefined
}

export function subjectsOf (request: ScoreRequest): Partial<Record<Subject, string>> {
  const out: Partial<Record<Subject, string>> = {}
  for (const s of SUBJECTS) {
    const v = subjectValue(request, s)
    if (v !== undefined) out[s] = v
  }
  return out
}
