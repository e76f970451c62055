import type { ComponentType } from 'react'
import { patterns } from '../lib/paths.ts'

export type RouteModule = { Component: ComponentType }
export type RouteImporter = () => Promise<RouteModule>

/**
 * Each route's page code, a file of its own (issue 33). The router (router.tsx) loads a route's
 * component through these; the page a start opens and the links in view fetch theirs ahead through
 * `fetchRouteCode`, which needs neither the router nor the route table: the entry starts the page's
 * code beside the app's own, not once the app has run (issue 34).
 */
export const routeCode = {
  login: () => import('./routes/login.tsx'),
  resetPassword: () => import('./routes/reset-password.tsx'),
  appShell: () => import('./routes/app-shell.tsx'),
  daily: () => import('./routes/daily.tsx'),
  me: () => import('./routes/me.tsx'),
  password: () => import('./routes/password.tsx'),
  notes: () => import('./routes/notes.tsx'),
  statisticsLayout: () => import('./routes/statistics/layout.tsx'),
  statistics: () => import('./routes/statistics/statistics.tsx'),
  settingsLayout: () => import('./routes/settings/layout.tsx'),
  settingsAnswers: () => import('./routes/settings/answers.tsx'),
  settingsNotifications: () => import('./routes/settings/notifications.tsx'),
  settingsPersons: () => import('./routes/settings/persons.tsx'),
  settingsUsers: () => import('./routes/settings/users.tsx'),
  personLayout: () => import('./routes/person/layout.tsx'),
  personDaily: () => import('./routes/person/daily.tsx'),
  personNotes: () => import('./routes/person/notes.tsx'),
  personSettingsLayout: () => import('./routes/person/settings/layout.tsx'),
  personSettingsOverview: () => import('./routes/person/settings/overview.tsx'),
  personSettingsAnswers: () => import('./routes/person/settings/answers.tsx'),
  personSettingsGeneral: () => import('./routes/person/settings/general.tsx'),
  personSettingsNotifications: () => import('./routes/person/settings/notifications.tsx'),
  personSettingsFeatures: () => import('./routes/person/settings/settings.tsx'),
  personSettingsAccessLog: () => import('./routes/person/settings/access-log.tsx'),
  createPersonLayout: () => import('./routes/create/person/layout.tsx'),
  createPersonGeneral: () => import('./routes/create/person/general.tsx'),
  createPersonAnswers: () => import('./routes/create/person/answers.tsx'),
  createPersonSettings: () => import('./routes/create/person/settings.tsx'),
  createUserLayout: () => import('./routes/create/user/layout.tsx'),
  createUserGeneral: () => import('./routes/create/user/general.tsx'),
  adminIndex: () => import('./routes/admin/index.tsx'),
  adminLocation: () => import('./routes/admin/location.tsx'),
  adminPersonLayout: () => import('./routes/admin/person-layout.tsx'),
  adminPersonSettings: () => import('./routes/admin/person-settings.tsx'),
  adminPersonAccessLog: () => import('./routes/admin/person-access-log.tsx'),
} satisfies Record<string, RouteImporter>

const c = routeCode
const shell = c.appShell
const person = [shell, c.personLayout]
const personSettings = [...person, c.personSettingsLayout]

/**
 * The code each URL pattern renders, its layouts first: what the router's matches for that URL load
 * (route-code.test.ts holds the two together). A pattern whose index route only redirects loads its
 * layouts alone.
 */
const pageCode: Record<string, RouteImporter[]> = {
  [patterns.login]: [c.login],
  [patterns.resetPassword]: [c.resetPassword],
  [patterns.daily]: [shell, c.daily],
  [patterns.me]: [shell, c.me],
  [patterns.password]: [shell, c.password],
  [patterns.notes]: [shell, c.notes],
  [patterns.statistics]: [shell, c.statisticsLayout, c.statistics],
  [patterns.statisticsOverview]: [shell, c.statisticsLayout, c.statistics],
  [patterns.settings]: [shell, c.settingsLayout],
  [patterns.settingsAnswers]: [shell, c.settingsLayout, c.settingsAnswers],
  [patterns.settingsNotifications]: [shell, c.settingsLayout, c.settingsNotifications],
  [patterns.settingsPersons]: [shell, c.settingsLayout, c.settingsPersons],
  [patterns.settingsUsers]: [shell, c.settingsLayout, c.settingsUsers],
  [patterns.person]: person,
  [patterns.personDaily]: [...person, c.personDaily],
  [patterns.personNotes]: [...person, c.personNotes],
  [patterns.personSettings]: [...personSettings, c.personSettingsOverview],
  [patterns.personSettingsAnswers]: [...personSettings, c.personSettingsAnswers],
  [patterns.personSettingsGeneral]: [...personSettings, c.personSettingsGeneral],
  [patterns.personSettingsNotifications]: [...personSettings, c.personSettingsNotifications],
  [patterns.personSettingsFeatures]: [...personSettings, c.personSettingsFeatures],
  [patterns.personSettingsAccessLog]: [...personSettings, c.personSettingsAccessLog],
  [patterns.createPerson]: [shell, c.createPersonLayout],
  [patterns.createPersonGeneral]: [shell, c.createPersonLayout, c.createPersonGeneral],
  [patterns.createPersonAnswers]: [shell, c.createPersonLayout, c.createPersonAnswers],
  [patterns.createPersonSettings]: [shell, c.createPersonLayout, c.createPersonSettings],
  [patterns.createUser]: [shell, c.createUserLayout],
  [patterns.createUserGeneral]: [shell, c.createUserLayout, c.createUserGeneral],
  [patterns.admin]: [shell, c.adminIndex],
  [patterns.adminLocation]: [shell, c.adminLocation],
  [patterns.adminPersonSettings]: [shell, c.adminPersonLayout, c.adminPersonSettings],
  [patterns.adminPersonAccessLog]: [shell, c.adminPersonLayout, c.adminPersonAccessLog],
}

const segments = (path: string) => path.split('/').filter((segment) => segment !== '')

/** Does `pathname` fit `pattern` (`:id` one segment, a last `*` one or more), as the router matches it? */
export function fitsPattern(pattern: string, pathname: string): boolean {
  const want = segments(pattern)
  const have = segments(pathname)
  const rest = want.at(-1) === '*'
  if (rest ? have.length < want.length : have.length !== want.length) return false
  return want.every((part, index) => part === '*' || (part.startsWith(':') ? true : part === have[index]))
}

/** The route code `pathname` renders (none for a path no page has). */
export function routeCodeFor(pathname: string): RouteImporter[] {
  for (const [pattern, code] of Object.entries(pageCode)) if (fitsPattern(pattern, pathname)) return code
  return []
}

/** Fetches (and runs) the route code `pathname` renders, without navigating; failures are left to the router. */
export function fetchRouteCode(pathname: string): void {
  for (const importer of routeCodeFor(pathname)) importer().catch(() => {})
}
