/**
 * What an admin turned on for a location (only admins write `settings.features`, firestore.rules):
 * registering answers, free-text diary entries, dictation, and whether dictation may use the browser
 * maker's cloud speech service where on-device recognition is not available (off by default: a
 * citizen's words stay on the device, ADR 0007). Zod-free, so the signed-in shell can read it.
 */
export type LocationFeatures = { answers: boolean; freeText: boolean; dictation: boolean; cloudDictation: boolean }

export const DEFAULT_LOCATION_FEATURES: LocationFeatures = {
  answers: true,
  freeText: true,
  dictation: true,
  cloudDictation: false,
}

/** A location's stored features over the defaults (a location written before features existed has none). */
export function locationFeatures(stored: unknown): LocationFeatures {
  const features = { ...DEFAULT_LOCATION_FEATURES }
  if (typeof stored === 'object' && stored !== null)
    for (const key of Object.keys(features) as (keyof LocationFeatures)[]) {
      const value = (stored as Record<string, unknown>)[key]
      if (typeof value === 'boolean') features[key] = value
    }
  return features
}
