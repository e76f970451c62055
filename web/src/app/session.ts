import type { CustomClaims } from '@bosted/domain/user'
import { redirect } from 'react-router-dom'
import { subscribeKey } from 'valtio/utils'
import {
  clearActiveLocation,
  expectedActiveLocationId,
  locations,
  restoreActiveLocation,
} from '../features/locations/locations-store.ts'
import { refreshSession } from '../features/session/api/refresh-session.ts'
import { validateSession } from '../features/session/api/validate-session.ts'
import { markSessionFresh, type SessionUser, session, setSessionUser } from '../features/session/session-store.ts'
import { clearIdentifiedImages } from '../lib/avatars/image-cache.ts'
import { readCookie, USER_ID_COOKIE } from '../lib/cookies.ts'
import { endLive } from '../lib/live-query.ts'
import { paths } from '../lib/paths.ts'
import { reportError } from '../lib/report-error.ts'
import { createSessionMachine } from '../lib/session.ts'

let navigateToLogin: () => void = () => {}

/** The router registers how to go to /login (it exists only after the routes are created). */
export function setLoginNavigator(navigate: () => void): void {
  navigateToLogin = navigate
}

/** REQ-SESSION wired to the real world: the api, the stores, the cookies and the router. */
export const sessionMachine = createSessionMachine<SessionUser>({
  getUser: () => session.user,
  setUser(user) {
    setSessionUser(user)
    if (user === null) clearActiveLocation()
  },
  readUserIdCookie: () => readCookie(USER_ID_COOKIE),
  // Right after a sign-in the api's answer to it was the validation (REQ-SESSION-3 validates at app start).
  validateSession: () => (takeFreshSignIn() ? Promise.resolve(true) : validateSession()),
  // Firestore is loaded with the user, never on the sign-in page.
  loadUser: (id) => takePrimedUser(id) ?? loadSessionUserById(id),
  refreshSession,
  getLastCheck: () => session.lastCheck,
  setLastCheck: markSessionFresh,
  now: () => Date.now(),
  redirectToLogin: () => navigateToLogin(),
  warn: (message, error) => console.warn(message, error),
})

/** The page a session guard starts the session machine for, while it starts it (see requireSession). */
let startingAt: URL | null = null

const loadSessionUserById = async (id: string) => {
  // The user as this browser last read them (a plain copy, not the store's proxy): their claims are
  // kept should the api not answer now, and their page is read ahead at an app start.
  const user = session.user
  const remembered =
    user?.id === id ? { ...user, customClaims: { ...user.customClaims }, locations: [...user.locations] } : null
  const page = startingAt
  const readAhead =
    remembered === null || page === null
      ? undefined
      : (claims: CustomClaims) => readAheadAsRemembered({ ...remembered, customClaims: claims }, page)
  const { loadSessionUser } = await import('../features/session/api/load-session-user.ts')
  return loadSessionUser(id, remembered?.customClaims, readAhead)
}
// The locations' reads carry the query cache: loaded with the user, never on the sign-in page.
const locationsApi = () => import('../features/locations/api/get-locations.ts')
/** Reads the locations `ids` into the query cache: the guard's read of the same ids finds it under way. */
const readLocationsAhead = (ids: readonly string[]) =>
  void locationsApi().then(({ prefetchLocations }) => prefetchLocations(ids))

/** The user and locations read right after a sign-in, for the landing page's guard to pick up. */
let primed: { id: string; user: Promise<SessionUser> } | null = null
/** The user id of a sign-in that has just set the session cookie, until the guard's first start. */
let signedInNow: string | null = null

function takeFreshSignIn(): boolean {
  const fresh = signedInNow !== null && signedInNow === readCookie(USER_ID_COOKIE)
  signedInNow = null
  return fresh
}

/**
 * Called when a sign-in has succeeded (the session cookie is set): reads the user (claims, profile)
 * and then their locations at once, instead of after the landing page's guard has made its own round
 * trip, and spares that round trip (the session was just set); the guard takes what is under way
 * (once). Issue 34: sign-in → landing page under 1.2 s.
 */
export function primeSignedInUser(id: string): void {
  signedInNow = id
  const user = loadSessionUserById(id)
  primed = { id, user }
  user.then(
    (loaded) => {
      if (primed?.user === user) readLocationsAhead(loaded.locations)
    },
    () => {},
  )
}

function takePrimedUser(id: string): Promise<SessionUser> | null {
  signedInNow = null
  if (primed === null || primed.id !== id) return null
  const { user } = primed
  primed = null
  return user
}

/**
 * The user's locations into the query cache before the page shows, and the saved choice among them
 * restored; a failed read stays in the cache for the page to show with its retry.
 */
async function loadLocations(user: SessionUser): Promise<void> {
  const list = await (await locationsApi()).loadLocations(user.locations)
  if (list !== null) restoreActiveLocation(list.map((location) => location.id))
}

/**
 * Reads the user's locations again (after an admin created, changed or deleted one), adding `added`
 * to the user's own list: the header's switcher, logo and each page's features follow at once.
 */
export async function reloadLocations(added?: string): Promise<void> {
  const user = session.user
  if (user === null) return
  if (added !== undefined && !user.locations.includes(added)) user.locations.push(added)
  await (await locationsApi()).refreshLocations()
  await loadLocations(user)
}

/**
 * The signed-in user once the session is restored, for route loaders that run beside the session
 * guard; null without a session (the guard sends the user to /login, so the loader reads nothing).
 * A reload begins with the copy kept in local storage; `confirmed` waits for this app start's read of
 * the user, as the guard does: a loader that decides on a role needs the claims the api gives now, not
 * the stored ones (they may have changed, or the read that stored them may have been cut off).
 */
export async function restoredSessionUser({ confirmed = false } = {}): Promise<SessionUser | null> {
  if (readCookie(USER_ID_COOKIE) === null) return null
  await restoreIfOffline()
  const mustStart = session.user === null || (confirmed && !sessionMachine.isChecking())
  if (mustStart && (await sessionMachine.start()) === 'unauthenticated') return null
  return session.user
}

/**
 * The guard of every route except /login (run on each navigation): a session cookie is required,
 * the session machine is started once per app start, and the user's locations are loaded.
 */
export async function requireSession({ request }: { request?: Request } = {}): Promise<null> {
  if (readCookie(USER_ID_COOKIE) === null) {
    sessionMachine.stop()
    if (session.user !== null) setSessionUser(null)
    clearActiveLocation()
    throw redirect(paths.login)
  }
  await restoreIfOffline()
  if (session.user === null || !sessionMachine.isChecking()) {
    // The machine asks for the user as it starts (synchronously): that read knows the page.
    startingAt = request === undefined ? null : new URL(request.url)
    const started = sessionMachine.start()
    startingAt = null
    if ((await started) === 'unauthenticated') throw redirect(paths.login)
  }
  const user = session.user
  const path = request === undefined ? null : new URL(request.url).pathname
  if (user !== null && path !== null) {
    const elsewhere = guardRedirect(user, path)
    if (elsewhere !== null) throw redirect(elsewhere)
    if (path === paths.password) return locationsLoaded(user)
  }
  if (user !== null && request !== undefined) prefetchPageData(new URL(request.url), user)
  if (user !== null && locations.activeId === null) await loadLocations(user)
  return null
}

/** Where the guard sends `user` instead of `path`, if anywhere. */
function guardRedirect(user: SessionUser, path: string): string | null {
  // A temporary password is changed before anything else (ADR 0023).
  if (user.customClaims.mustChangePassword === true) return path === paths.password ? null : paths.password
  if (path === paths.password) return null
  // A person (borger) has one page, "Min dag"; staff never see it.
  const isMe = path === paths.me || path.startsWith(`${paths.me}/`)
  if (user.kind === 'person' && !isMe) return paths.me
  if (user.kind !== 'person' && isMe) return paths.daily
  return null
}

/**
 * An app start with the user this browser remembers (issue 34, ADR 0035): once the api has confirmed
 * the session (with the claims it gives now) and Auth is signed in, the locations' read and the page's
 * first reads start for the locations remembered, beside the read of the user's profile rather than
 * after it. The guard then goes on with the profile just read: the same locations and page find their
 * reads under way; a changed list of locations reads its own. Nothing is read for a page the guard
 * would not show.
 */
function readAheadAsRemembered(user: SessionUser, page: URL): void {
  if (guardRedirect(user, page.pathname) !== null) return
  readLocationsAhead(user.locations)
  prefetchPageData(page, user)
}

let restoring: Promise<void> | null = null

/**
 * An app start without a connection shows the care pages as last kept on the device (ADR 0034),
 * before any loader asks for data that could not be read; once per start.
 */
function restoreIfOffline(): Promise<void> {
  const owner = readCookie(USER_ID_COOKIE)
  if (restoring === null && !navigator.onLine && owner !== null) {
    restoring = import('../lib/kept-queries.ts')
      .then(({ restoreQueries }) => restoreQueries(owner))
      .then(() => {}, reportError('the kept pages could not be restored'))
  }
  return restoring ?? Promise.resolve()
}

/**
 * The page's first reads start now, beside the locations' read and the route's code (issue 34;
 * app/page-data.ts), for the location the page will show. Not awaited: the page waits for its data.
 */
function prefetchPageData(url: URL, user: SessionUser): void {
  // page-data.ts alone knows which pages have such reads (its code is a small file; its imports are
  // in the app's start chunk, ADR 0031).
  const locationId = expectedActiveLocationId(user.locations)
  void import('./page-data.ts').then(
    (module) => module.prefetchPageData(url, user, locationId),
    () => {},
  )
}

async function locationsLoaded(user: SessionUser): Promise<null> {
  if (locations.activeId === null) await loadLocations(user)
  return null
}

/** On leaving the app the authentication check stops (REQ-SESSION-6). */
export function stopSessionOnLeave(target: Window = window): void {
  target.addEventListener('pagehide', () => sessionMachine.stop())
  // Back from the back/forward cache: the page lives again, so does its check.
  target.addEventListener('pageshow', (event) => {
    if (event.persisted && session.user !== null) void sessionMachine.start()
  })
}

/**
 * A sign-in has succeeded (the session cookie is set): a different user replaces whatever user this
 * browser remembered, the session counts as just checked, and the user's data starts loading.
 */
export function completeSignIn(userId: string): void {
  if (session.user !== null && session.user.id !== userId) endSession()
  markSessionFresh()
  primeSignedInUser(userId)
}

/** Signs the user out locally: stops the check, clears the user and the active location. */
export function endSession(): void {
  primed = null
  signedInNow = null
  sessionMachine.stop()
  setSessionUser(null)
  clearActiveLocation()
}

// Pictures downloaded as one user are never shown to the next (sign-out, or another account).
let imagesReadAs = session.user?.id ?? null
subscribeKey(session, 'user', (user) => {
  if ((user?.id ?? null) === imagesReadAs) return
  imagesReadAs = user?.id ?? null
  clearIdentifiedImages()
})

// Whenever the active user becomes empty, go to /login (REQ-SESSION-5).
subscribeKey(session, 'user', (user) => {
  if (user === null) {
    sessionMachine.stop()
    // The listeners of live pages end, and the device's cache goes with them (ADR 0033), as do the
    // pages kept for a start without a connection (ADR 0034).
    endLive().catch(reportError('the live listeners could not be ended'))
    import('../lib/kept-queries.ts').then(
      ({ forgetQueries }) => forgetQueries(),
      reportError('the kept pages could not be cleared'),
    )
    navigateToLogin()
  }
})
