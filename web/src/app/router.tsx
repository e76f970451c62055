import type { ComponentType } from 'react'
import { createBrowserRouter, matchRoutes, type RouteObject, redirect } from 'react-router-dom'
import { session } from '../features/session/session-store.ts'
import { readCookie, USER_ID_COOKIE } from '../lib/cookies.ts'
import { childPath, paths, patterns } from '../lib/paths.ts'
import { isId, notFound, validateParams } from '../lib/route-errors.ts'
import { parseAdminLocationPath } from './admin-location-path.ts'
import { ErrorPage, RouteError } from './layout/route-error.tsx'
import { RouteLoading } from './layout/route-loading.tsx'
import { setPrefetcher } from './prefetch.ts'
import { RootLayout } from './root-layout.tsx'
import { requireSession, restoredSessionUser, setLoginNavigator } from './session.ts'

type RouteModule = { Component: ComponentType }
type Importer = () => Promise<RouteModule>

/** Each route's code importer, so a link can fetch it ahead of time (prefetch on visibility). */
const importers = new Map<RouteObject, Importer>()

/** A route whose page is loaded on demand, with its own error boundary (no white screen). */
function page(importer: Importer, route: Omit<RouteObject, 'lazy' | 'index'> & { index?: true } = {}): RouteObject {
  const loadComponent = async (): Promise<ComponentType> => {
    try {
      return (await importer()).Component
    } catch (error) {
      // A failed chunk thrown from `lazy` leaves the first render blank in react-router; as a
      // component it reaches the error page, which reloads the app once (chunk-reload guard), or,
      // offline, says so and reloads once the tablet is online.
      return () => <ErrorPage error={error} />
    }
  }
  const object = {
    ...route,
    errorElement: <RouteError />,
    // Only the component is lazy (the object form): a route's loader, the session guard above all,
    // runs at once beside the code's download instead of after it (issue 34). A new object for each
    // router made from these routes: react-router empties the one it was given once it has loaded.
    get lazy() {
      return { Component: loadComponent }
    },
  } as RouteObject
  importers.set(object, importer)
  return object
}

const to = (path: string) => () => redirect(path)

export const routes: RouteObject[] = [
  {
    id: 'root',
    Component: RootLayout,
    errorElement: <RouteError />,
    HydrateFallback: RouteLoading,
    children: [
      page(() => import('./routes/login.tsx'), {
        path: childPath(patterns.login),
        // Already signed in: straight to the daily overview.
        loader: () => (readCookie(USER_ID_COOKIE) !== null && session.user !== null ? redirect(paths.daily) : null),
      }),
      // The page a password-reset mail's link opens: no session (ADR 0023).
      page(() => import('./routes/reset-password.tsx'), { path: childPath(patterns.resetPassword) }),
      page(() => import('./routes/app-shell.tsx'), {
        id: 'app',
        loader: requireSession,
        // The guard runs on every path change: with no user active, the user goes to /login.
        shouldRevalidate: () => true,
        children: [
          { index: true, loader: to(paths.daily) },
          page(() => import('./routes/daily.tsx'), { path: childPath(patterns.daily) }),
          page(() => import('./routes/me.tsx'), { path: childPath(patterns.me) }),
          page(() => import('./routes/password.tsx'), { path: childPath(patterns.password) }),
          page(() => import('./routes/notes.tsx'), { path: childPath(patterns.notes) }),
          page(() => import('./routes/statistics/layout.tsx'), {
            path: childPath(patterns.statistics),
            children: [
              page(() => import('./routes/statistics/statistics.tsx'), { index: true }),
              page(() => import('./routes/statistics/statistics.tsx'), {
                path: childPath(patterns.statisticsOverview, patterns.statistics),
              }),
            ],
          }),
          page(() => import('./routes/settings/layout.tsx'), {
            path: childPath(patterns.settings),
            children: [
              { index: true, loader: to(paths.settings.persons) },
              page(() => import('./routes/settings/answers.tsx'), {
                path: childPath(patterns.settingsAnswers, patterns.settings),
              }),
              page(() => import('./routes/settings/notifications.tsx'), {
                path: childPath(patterns.settingsNotifications, patterns.settings),
              }),
              page(() => import('./routes/settings/persons.tsx'), {
                path: childPath(patterns.settingsPersons, patterns.settings),
              }),
              page(() => import('./routes/settings/users.tsx'), {
                path: childPath(patterns.settingsUsers, patterns.settings),
              }),
            ],
          }),
          page(() => import('./routes/person/layout.tsx'), {
            path: childPath(patterns.person),
            // Loaded with its route: the person is read (and the rules consulted) before the page shows.
            loader: async (args) => (await import('./routes/person/person-loader.ts')).personLoader(args),
            // Only a new person needs a new check; the layout's tabs keep the one made.
            shouldRevalidate: ({ currentParams, nextParams }) => currentParams.id !== nextParams.id,
            children: [
              { index: true, loader: ({ params }) => redirect(paths.person.daily(params.id ?? '')) },
              page(() => import('./routes/person/daily.tsx'), {
                path: childPath(patterns.personDaily, patterns.person),
              }),
              page(() => import('./routes/person/notes.tsx'), {
                path: childPath(patterns.personNotes, patterns.person),
              }),
              page(() => import('./routes/person/settings/layout.tsx'), {
                path: childPath(patterns.personSettings, patterns.person),
                children: [
                  page(() => import('./routes/person/settings/overview.tsx'), { index: true }),
                  page(() => import('./routes/person/settings/answers.tsx'), {
                    path: childPath(patterns.personSettingsAnswers, patterns.personSettings),
                  }),
                  page(() => import('./routes/person/settings/general.tsx'), {
                    path: childPath(patterns.personSettingsGeneral, patterns.personSettings),
                  }),
                  page(() => import('./routes/person/settings/notifications.tsx'), {
                    path: childPath(patterns.personSettingsNotifications, patterns.personSettings),
                  }),
                  page(() => import('./routes/person/settings/settings.tsx'), {
                    path: childPath(patterns.personSettingsFeatures, patterns.personSettings),
                  }),
                  page(() => import('./routes/person/settings/access-log.tsx'), {
                    path: childPath(patterns.personSettingsAccessLog, patterns.personSettings),
                  }),
                ],
              }),
            ],
          }),
          page(() => import('./routes/create/person/layout.tsx'), {
            path: childPath(patterns.createPerson),
            children: [
              { index: true, loader: to(paths.create.personGeneral) },
              page(() => import('./routes/create/person/general.tsx'), {
                path: childPath(patterns.createPersonGeneral, patterns.createPerson),
              }),
              page(() => import('./routes/create/person/answers.tsx'), {
                path: childPath(patterns.createPersonAnswers, patterns.createPerson),
              }),
              page(() => import('./routes/create/person/settings.tsx'), {
                path: childPath(patterns.createPersonSettings, patterns.createPerson),
              }),
            ],
          }),
          page(() => import('./routes/create/user/layout.tsx'), {
            path: childPath(patterns.createUser),
            children: [
              { index: true, loader: to(paths.create.userGeneral) },
              page(() => import('./routes/create/user/general.tsx'), {
                path: childPath(patterns.createUserGeneral, patterns.createUser),
              }),
            ],
          }),
          {
            path: childPath(patterns.admin),
            // Only admins reach /admin…: for anyone else the route validation fails with the 404 page.
            // A person (borger) is sent to "Min dag" by the session guard instead.
            loader: async ({ request }) => {
              // The claims this start reads, not the stored copy a reload begins with.
              const user = await restoredSessionUser({ confirmed: true })
              if (user !== null && user.kind !== 'person' && user.customClaims.admin !== true)
                throw notFound(new URL(request.url).pathname)
              return null
            },
            errorElement: <RouteError />,
            children: [
              page(() => import('./routes/admin/index.tsx'), { index: true }),
              page(() => import('./routes/admin/location.tsx'), {
                path: childPath(patterns.adminLocation, patterns.admin),
                loader: validateParams((params) => parseAdminLocationPath(params['*']) !== null),
              }),
              page(() => import('./routes/admin/person-layout.tsx'), {
                path: childPath(patterns.adminPersonSettings, patterns.admin),
                loader: validateParams((params) => isId(params.id)),
                children: [
                  page(() => import('./routes/admin/person-settings.tsx'), { index: true }),
                  page(() => import('./routes/admin/person-access-log.tsx'), {
                    path: childPath(patterns.adminPersonAccessLog, patterns.adminPersonSettings),
                  }),
                ],
              }),
            ],
          },
          {
            path: '*',
            errorElement: <RouteError />,
            loader: ({ request }) => {
              throw notFound(new URL(request.url).pathname)
            },
          },
        ],
      }),
    ],
  },
]

/** Fetches the code of every route `path` would render, without navigating. */
export function prefetchRoute(path: string): void {
  for (const match of matchRoutes(routes, path) ?? []) {
    importers
      .get(match.route)?.()
      .catch(() => {})
  }
}

// Links (and the sign-in page, while its request runs) fetch route code ahead through this.
setPrefetcher(prefetchRoute)

export function createAppRouter() {
  const router = createBrowserRouter(routes)
  setLoginNavigator(() => {
    const { initialized, navigation, location } = router.state
    // A navigation in flight runs the guard itself, which redirects.
    if (!initialized || navigation.state !== 'idle' || location.pathname === paths.login) return
    void router.navigate(paths.login, { replace: true })
  })
  return router
}
