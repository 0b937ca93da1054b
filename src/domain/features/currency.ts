/**
 * Amounts on one scale whatever the currency, for the model's absolute amount inputs: the prior's "above 250" or
 * "above 1,000" (src/domain/model/model.ts) mean the same money to a customer paying in euros, kronor or zloty.
 * Units of each currency per euro, rounded: the scale matters (a krona is a tenth of a euro), not the day's
 * rate, so the table needs no feed; a currency not listed (or none given) is taken as it is.
 */
const UNITS_PER_EUR: Readonly<Record<string, number>> = {
  EUR: 1, USD: 1.1, GBP: 0.85, CHF: 0.95, SEK: 11.5, NOK: 11.5, DKK: 7.5, ISK: 150, PLN: 4.3, CZK: 25, HUF: 400,
  RON: 5, BGN: 2, RSD: 117, TRY: 38, UAH: 45, CAD: 1.5, AUD: 1.65, NZD: 1.8, JPY: 160, CNY: 7.8, HKD: 8.5,
  SGD: 1.45, KRW: 1500, INR: 92, IDR: 17500, THB: 38, MYR: 5, PHP: 63, BRL: 6, MXN: 20, ARS: 1000, CLP: 1000,
  COP: 4500, ZAR: 20, NGN: 1700, KES: 140, EGP: 53, MAD: 10.8, AED: 4, SAR: 4.1, ILS: 4
}

/** The amount in euros, roughly (see UNITS_PER_EUR); the amount as it is for a currency not listed. */
export function amountInEuros (amount: number, currency: string | undefined): number {
  const units = currency === undefined ? undefined : UNITS_PER_EUR[currency.toUpperCase()]
  return units === undefined ? amount : amount / units
}
