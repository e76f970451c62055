/**
 * Every route of the app, named once: `patterns` are what the router matches (router.tsx takes its
 * `path` segments from them with `childPath`), `paths` build the URLs that links and navigations
 * use. A changed URL is changed here, and `paths.test.ts` says which bookmarks it breaks.
 */
export const patterns = {
  login: '/login',
  resetPassword: '/reset-password',
  daily: '/daily',
  me: '/me',
  password: '/password',
  notes: '/notes',
  statistics: '/statistics',
  statisticsOverview: '/statistics/statistics',
  settings: '/settings',
  settingsAnswers: '/settings/answers',
  settingsNotifications: '/settings/notifications',
  settingsPersons: '/settings/persons',
  settingsUsers: '/settings/users',
  person: '/person/:id',
  personDaily: '/person/:id/daily',
  personNotes: '/person/:id/notes',
  personSettings: '/person/:id/settings',
  personSettingsAnswers: '/person/:id/settings/answers',
  personSettingsGeneral: '/person/:id/settings/general',
  personSettingsNotifications: '/person/:id/settings/notifications',
  personSettingsFeatures: '/person/:id/settings/settings',
  personSettingsAccessLog: '/person/:id/settings/access-log',
  createPerson: '/create/person',
  createPersonGeneral: '/create/person/general',
  createPersonAnswers: '/create/person/answers',
  createPersonSettings: '/create/person/settings',
  createUser: '/create/user',
  createUserGeneral: '/create/user/general',
  admin: '/admin',
  /** The location id may span several segments; a last segment naming a tab is the tab (admin-location-path.ts). */
  adminLocation: '/admin/location/*',
  adminPersonSettings: '/admin/person/:id/settings',
  adminPersonAccessLog: '/admin/person/:id/settings/access-log',
} as const

/**
 * The router's `path` for `pattern` below its parent route's pattern (`''` for a route under a
 * pathless one): `childPath(patterns.personDaily, patterns.person)` is `'daily'`. Throws when the
 * pattern does not lie below the parent, so a misnamed route fails when the router is built.
 */
export function childPath(pattern: string, parent = ''): string {
  const prefix = `${parent}/`
  if (!pattern.startsWith(prefix) || pattern.length === prefix.length)
    throw new Error(`route ${pattern} is not below ${parent || '/'}`)
  return pattern.slice(prefix.length)
}

/** `pattern` with its `:id` filled in, URL-encoded. */
const withId = (pattern: string) => (id: string) => pattern.replace(':id', encodeURIComponent(id))

export const paths = {
  login: patterns.login,
  resetPassword: patterns.resetPassword,
  daily: patterns.daily,
  me: patterns.me,
  password: patterns.password,
  notes: patterns.notes,
  statistics: patterns.statistics,
  settings: {
    answers: patterns.settingsAnswers,
    notifications: patterns.settingsNotifications,
    persons: patterns.settingsPersons,
    users: patterns.settingsUsers,
  },
  person: {
    daily: withId(patterns.personDaily),
    notes: withId(patterns.personNotes),
    settings: {
      overview: withId(patterns.personSettings),
      answers: withId(patterns.personSettingsAnswers),
      general: withId(patterns.personSettingsGeneral),
      notifications: withId(patterns.personSettingsNotifications),
      features: withId(patterns.personSettingsFeatures),
      accessLog: withId(patterns.personSettingsAccessLog),
    },
  },
  create: {
    /** The wizard's start (its first step). */
    person: patterns.createPerson,
    personGeneral: patterns.createPersonGeneral,
    personAnswers: patterns.createPersonAnswers,
    personSettings: patterns.createPersonSettings,
    user: patterns.createUser,
    userGeneral: patterns.createUserGeneral,
  },
  admin: {
    index: patterns.admin,
    /** A location's page; its id is used as is (it may be a path of segments). */
    location: (id: string, tab?: 'general' | 'features' | 'subscription') =>
      patterns.adminLocation.replace('*', tab === undefined ? id : `${id}/${tab}`),
    personSettings: withId(patterns.adminPersonSettings),
    personAccessLog: withId(patterns.adminPersonAccessLog),
  },
} as const

/**
 * The pages whose early reads are in app/page-data-lazy.ts (Dagbøger, Statistik, Administration): a
 * file of its own, so that a visit to another page does not fetch it.
 */
export const readsAheadLazily = (pathname: string): boolean =>
  pathname === paths.notes || pathname.startsWith(paths.statistics) || pathname === paths.admin.index
