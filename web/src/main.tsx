import './styles.css'
import { Component, type ReactNode, StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { preloadSessionStart, restoreAuthEarly } from './app/prefetch.ts'
import { browserReloadDeps, reloadOnceAfterChunkError } from './lib/chunk-reload.ts'
import { loadRuntimeConfig } from './lib/config.ts'
import { readCookie, USER_ID_COOKIE } from './lib/cookies.ts'
import { paths } from './lib/paths.ts'

/** How long after the page's load event the app shell's worker is registered. */
const SHELL_AFTER_LOAD_MS = 3_000
const registerShell = () => void navigator.serviceWorker.register('/sw.js').catch(() => {})

// A chunk that fails to preload (an old build's file after a deploy): reload once, within the guard.
window.addEventListener('vite:preloadError', (event) => {
  if (reloadOnceAfterChunkError(browserReloadDeps())) event.preventDefault()
})

// The app shell (docs/decisions/0034-app-shell.md): the worker is asked for once the page has loaded
// and settled, so that keeping the build's files never shares the tablet's wifi with the page itself.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  window.addEventListener('load', () => setTimeout(registerShell, SHELL_AFTER_LOAD_MS), { once: true })
}

// Which build a page runs, for support and for the app shell's test of a new build: the label the
// build was given (VITE_BUILD_LABEL, e.g. a commit), as <html data-build>.
if (import.meta.env.VITE_BUILD_LABEL) document.documentElement.dataset.build = import.meta.env.VITE_BUILD_LABEL

const container = document.getElementById('root')
if (container === null) throw new Error('index.html has no #root element')
const root = createRoot(container)

/** The app with its router (every route, the session guard): app/app.tsx. */
const loadApp = () => import('./app/app.tsx')
let danish: Promise<void> | null = null
/**
 * Zod speaks Danish everywhere (issue 32) before any form of the app can validate; loaded beside
 * the configuration so the first chunk carries no zod (the sign-in form validates without it).
 */
const danishErrors = () => {
  danish ??= import('@bosted/domain/zod-da').then(({ installDanishZodErrors }) => installDanishZodErrors())
  return danish
}

/**
 * A first visit to /login (no session cookie) shows the sign-in form alone: React and the form, no
 * router, no route table, no Firebase (issue 34: ≤ 100 KB gzip JS before the form works). The app
 * loads while the form is filled in and takes over, at the landing page, once the sign-in succeeds.
 * With a session cookie, /login goes through the app (whose /login route sends a signed-in user on).
 */
const signInFirst = location.pathname === paths.login && readCookie(USER_ID_COOKIE) === null
// The configuration first: every Firebase call waits for it, and over HTTP/1.1 a request asked after
// the app's module files would queue behind them (issue 34).
const config = loadRuntimeConfig()
const loginPage = signInFirst ? import('./app/login-page.tsx') : null
// Everywhere else the app's code is fetched at once, beside the configuration, and with a session
// the code its guard runs first (reading the user and their locations).
if (!signInFirst) {
  danishErrors().catch(() => {})
  loadApp().catch(() => {})
  if (readCookie(USER_ID_COOKIE) !== null) preloadSessionStart()
}
// …and Firebase Auth restores its user as soon as the configuration says where Auth is.
if (!signInFirst && readCookie(USER_ID_COOKIE) !== null) void config.then(restoreAuthEarly)

async function startApp(): Promise<void> {
  const [{ App }] = await Promise.all([loadApp(), danishErrors(), config])
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  )
}

/** Should the sign-in form alone fail to render, the app shows /login (and its error page) instead. */
class OrTheApp extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  override componentDidCatch() {
    void startApp()
  }
  override render() {
    return this.state.failed ? null : this.props.children
  }
}

const noop = () => {}

async function startSignIn(page: NonNullable<typeof loginPage>): Promise<void> {
  const { LoginPage } = await page
  const preloadApp = () => {
    loadApp().catch(() => {})
    danishErrors().catch(() => {})
    // Firebase Auth sets itself up (its stored state read) while the form is filled in, not on submit.
    import('./lib/firebase.ts').then((module) => module.getFirebase()?.auth.authStateReady(), noop).catch(noop)
  }
  // On submit, the sign-in request goes first; the landing page's code and data after it (a task
  // later), so that the ~40 module requests do not hold the main thread before it is sent.
  const preloadLanding = () =>
    void setTimeout(() => {
      loadApp().then((app) => app.preloadLanding(), noop)
    }, 0)
  const onSignedIn = async (userId: string) => {
    const [app] = await Promise.all([loadApp(), danishErrors()])
    app.completeSignIn(userId)
    history.replaceState(history.state, '', paths.daily)
    root.render(
      <StrictMode>
        <app.App />
      </StrictMode>,
    )
  }
  root.render(
    <StrictMode>
      <OrTheApp>
        <LoginPage preload={preloadApp} onSubmitted={preloadLanding} onSignedIn={onSignedIn} />
      </OrTheApp>
    </StrictMode>,
  )
}

void config.then(() => (loginPage === null ? startApp() : startSignIn(loginPage).catch(startApp)))
