/** Business constants and timings (REQ-CONST). */
export const AUTH_CHECK_INTERVAL_MS = 30 * 60 * 1000
export const TOKEN_REFRESH_AFTER_MS = 60 * 60 * 1000
export const HEADER_SHADOW_SCROLL_PX = 48
export const TOAST_DURATION_MS = 6000
export const TOAST_POSITION = 'top-center'
export const TOAST_TOUCH_RESUME_DEBOUNCE_MS = 2000
export const CHUNK_RELOAD_GUARD_MS = 10_000
export const ACTIVE_LOCATION_STORAGE_KEY = 'activeLocationId'
export const SESSION_COOKIE_MAX_AGE_MS = 5 * 24 * 60 * 60 * 1000

/**
 * The name of a user document that has none (REQ-USER-1): UserSchema's defaults, and what the web shows.
 * Here rather than in user.ts so the web can read them without loading zod.
 */
export const DEFAULT_USER_FIRST_NAME = 'Demo'
export const DEFAULT_USER_LAST_NAME = 'Bruger'

/** Demo project used by every emulator (the `demo-` prefix keeps firebase-tools offline). */
export const DEMO_PROJECT_ID = 'demo-bosted'
export const DEMO_STORAGE_BUCKET = 'demo-bosted.appspot.com'
export const DEMO_PASSWORD = 'demo1234'
