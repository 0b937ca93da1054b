/**
 * What the service reads from the free-form `geo` object: the country of the event (`country`), the country
 * the IP address resolves to (`ip_country`), the billing or card-issuing country (`billing_country`) and a
 * position (`lat`/`lon`, also `latitude`/`longitude`, `lng`). Anything else in `geo` is only seen by rules.
 */
export interface GeoPoint { lat: number, lon: number }
export interface GeoFacts { country?: string, ipCountry?: string, billingCountry?: string, point?: GeoPoint }

const country = (v: unknown) => typeof v === 'string' && /^[A-Za-z]{2}$/.test(v) ? v.toUpperCase() : undefined
const number = (...vs: unknown[]) => vs.find((v): v is number => typeof v === 'number' && Number.isFinite(v))

export function geoFacts (geo: Record<string, unknown> | undefined): GeoFacts {
  if (geo === undefined) return {}
  const lat = number(geo.lat, geo.latitude)
  const lon = number(geo.lon, geo.lng, geo.longitude)
  const point = lat !== undefined && lon !== undefined && Math.abs(lat) <= 90 && Math.abs(lon) <= 180 ? { lat, lon } : undefined
  return { country: country(geo.country), ipCountry: country(geo.ip_country), billingCountry: country(geo.billing_country), point }
}

/** 1 when the countries the request names disagree (event vs IP vs billing), 0 when they agree or fewer than two are named. */
export function countryMismatch (g: GeoFacts): number {
  const named = [g.country, g.ipCountry, g.billingCountry].filter((c): c is string => c !== undefined)
  return named.some(c => c !== named[0]) ? 1 : 0
}

const EARTH_RADIUS_KM = 6371

export function distanceKm (a: GeoPoint, b: GeoPoint): number {
  const rad = Math.PI / 180
  const dLat = (b.lat - a.lat) * rad
  const dLon = (b.lon - a.lon) * rad
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)))
}

/** Faster than an airliner over more than 100 km: the same user cannot have been at both places. */
export const IMPOSSIBLE_KMH = 1000
const MIN_DISTANCE_KM = 100

/** Speed (km/h) needed to get from the user's last position to this one; 0 when unknown or close. */
export function travelSpeedKmh (last: { point: GeoPoint, at_ms: number } | undefined, point: GeoPoint | undefined, nowMs: number): number {
  if (last === undefined || point === undefined) return 0
  const km = distanceKm(last.point, point)
  if (km < MIN_DISTANCE_KM) return 0
  // Either order of time: a backdated event's last known position may be later than the event.
  const hours = Math.max(Math.abs(nowMs - last.at_ms), 60_000) / 3_600_000
  return km / hours
}
