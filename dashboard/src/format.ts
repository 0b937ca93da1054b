/** How long ago a unix time was, in the largest whole unit: "3 min", "5 h", "11 days". */
export function age (unixSeconds: number, nowMs = Date.now()): string {
  const s = Math.max(0, Math.floor(nowMs / 1000) - unixSeconds)
  if (s < 60) return `${s} s`
  if (s < 3600) return `${Math.floor(s / 60)} min`
  if (s < 86_400) return `${Math.floor(s / 3600)} h`
  const days = Math.floor(s / 86_400)
  return days === 1 ? '1 day' : `${days} days`
}

/** An amount with its currency, written the same for every reader (en-US: "€20,000.00"); the plain number without one. */
export function money (amount: number | null, currency: string | null): string {
  if (amount === null) return '—'
  if (currency === null) return amount.toLocaleString('en-US', { maximumFractionDigits: 2 })
  try {
    return amount.toLocaleString('en-US', { style: 'currency', currency })
  } catch {
    return `${amount.toLocaleString('en-US', { maximumFractionDigits: 2 })} ${currency}`
  }
}

export const subjectsText = (subjects: Record<string, string>) => Object.entries(subjects).map(([k, v]) => `${k}: ${v}`).join(', ')
