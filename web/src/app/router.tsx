import type { ComponentType } from 'react'
import { createBrowserRouter, matchRoutes, type RouteObject, redirect } from 'react-router-dom'
import { session } from '../features/session/session-store.ts'
import { readCookie, USER_ID_COOKIE } from '../lib/cookies.ts'
import { childPath, paths, patterns } from '../lib/paths.ts'
import { isId, notFound, validateParams } from '../lib/route-errors.ts'
import { parseAdminLocationPath } from './admin-location-path.ts'
import { ErrorPage, RouteError } from './layout/route-error.tsx'
import { RouteLoading } from './layout/route-loading.tsx'
import { RootLayout } from './root-layout.tsx'
import { type RouteImporter, routeCode } from './route-code.ts'
import { requireSession, restoredSessionUser, setLoginNavigator } from './session.ts'

/** Each route's code importer (route-code.test.ts holds route-code.ts's table of them to the routes). */
const importers = new Map<RouteObject, RouteImporter>()

/** A route whose page is loaded on demand, with its own error boundary (no white screen). */
function page(
  importer: RouteImporter,
  route: Omit<RouteObject, 'lazy' | 'index'> & { index?: true } = {},
): RouteObject {
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
      page(routeCode.login, {
        path: childPath(patterns.login),
        // Already signed in: straight to the daily overview.
        loader: () => (readCookie(USER_ID_COOKIE) !== null && session.user !== null ? redirect(paths.daily) : null),
      }),
      // The page a password-reset mail's link opens: no session (ADR 0023).
      page(routeCode.resetPassword, { path: childPath(patterns.resetPassword) }),
      page(routeCode.appShell, {
        id: 'app',
        loader: requireSession,
        // The guard runs on every path change: with no user active, the user goes to /login.
        shouldRevalidate: () => true,
        children: [
          { index: true, loader: to(paths.daily) },
          page(routeCode.daily, { path: childPath(patterns.daily) }),
          page(routeCode.me, { path: childPath(patterns.me) }),
          page(routeCode.password, { path: childPath(patterns.password) }),
          page(routeCode.notes, { path: childPath(patterns.notes) }),
          page(routeCode.statisticsLayout, {
            path: childPath(patterns.statistics),
            children: [
              page(routeCode.statistics, { index: true }),
              page(routeCode.statistics, {
                path: childPath(patterns.statisticsOverview, patterns.statistics),
              }),
            ],
          }),
          page(routeCode.settingsLayout, {
            path: childPath(patterns.settings),
            children: [
              { index: true, loader: to(paths.settings.persons) },
              page(routeCode.settingsAnswers, {
                path: childPath(patterns.settingsAnswers, patterns.settings),
              }),
              page(routeCode.settingsNotifications, {
                path: childPath(patterns.settingsNotifications, patterns.settings),
              }),
              page(routeCode.settingsPersons, {
                path: childPath(patterns.settingsPersons, patterns.settings),
              }),
              page(routeCode.settingsUsers, {
                path: childPath(patterns.settingsUsers, patterns.settings),
              }),
            ],
          }),
          page(routeCode.personLayout, {
            path: childPath(patterns.person),
            // Loaded with its route: the person is read (and the rules consulted) before the page shows.
            loader: async (args) => (await import('./routes/person/person-loader.ts')).personLoader(args),
            // Only a new person needs a new check; the layout's tabs keep the one made.
            shouldRevalidate: ({ currentParams, nextParams }) => currentParams.id !== nextParams.id,
            children: [
              { index: true, loader: ({ params }) => redirect(paths.person.daily(params.id ?? '')) },
              page(routeCode.personDaily, {
                path: childPath(patterns.personDaily, patterns.person),
              }),
              page(routeCode.personNotes, {
                path: childPath(patterns.personNotes, patterns.person),
              }),
              page(routeCode.personSettingsLayout, {
                path: childPath(patterns.personSettings, patterns.person),
                children: [
                  page(routeCode.personSettingsOverview, { index: true }),
                  page(routeCode.personSettingsAnswers, {
                    path: childPath(patterns.personSettingsAnswers, patterns.personSettings),
                  }),
                  page(routeCode.personSettingsGeneral, {
                    path: childPath(patterns.personSettingsGeneral, patterns.personSettings),
                  }),
                  page(routeCode.personSettingsNotifications, {
                    path: childPath(patterns.personSettingsNotifications, patterns.personSettings),
                  }),
                  page(routeCode.personSettingsFeatures, {
                    path: childPath(patterns.personSettingsFeatures, patterns.personSettings),
                  }),
                  page(routeCode.personSettingsAccessLog, {
                    path: childPath(patterns.personSettingsAccessLog, patterns.personSettings),
                  }),
                ],
              }),
            ],
          }),
          page(routeCode.createPersonLayout, {
            path: childPath(patterns.createPerson),
            children: [
              { index: true, loader: to(paths.create.personGeneral) },
              page(routeCode.createPersonGeneral, {
                path: childPath(patterns.createPersonGeneral, patterns.createPerson),
              }),
              page(routeCode.createPersonAnswers, {
                path: childPath(patterns.createPersonAnswers, patterns.createPerson),
              }),
              page(routeCode.createPersonSettings, {
                path: childPath(patterns.createPersonSettings, patterns.createPerson),
              }),
            ],
          }),
          page(routeCode.createUserLayout, {
            path: childPath(patterns.createUser),
            children: [
              { index: true, loader: to(paths.create.userGeneral) },
              page(routeCode.createUserGeneral, {
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
              page(routeCode.adminIndex, { index: true }),
              page(routeCode.adminLocation, {
                path: childPath(patterns.adminLocation, patterns.admin),
                loader: validateParams((params) => parseAdminLocationPath(params['*']) !== null),
              }),
              page(routeCode.adminPersonLayout, {
                path: childPath(patterns.adminPersonSettings, patterns.admin),
                loader: validateParams((params) => isId(params.id)),
                children: [
                  page(routeCode.adminPersonSettings, { index: true }),
                  page(routeCode.adminPersonAccessLog, {
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

/** The code of every route the router matches for `path` (what its lazy components load), outermost first. */
export function matchedRouteCode(path: string): RouteImporter[] {
  return (matchRoutes(routes, path) ?? []).flatMap((match) => importers.get(match.route) ?? [])
}

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
