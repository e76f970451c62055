import { matchRoutes } from 'react-router-dom'
import { expect, test } from 'vitest'
import { routes } from '../app/router.tsx'
import { childPath, paths, patterns } from './paths.ts'

// Every URL the app links to, as users bookmark it: a changed path fails here first.
const URLS: [string, string][] = [
  [paths.login, '/login'],
  [paths.resetPassword, '/reset-password'],
  [paths.daily, '/daily'],
  [paths.me, '/me'],
  [paths.password, '/password'],
  [paths.notes, '/notes'],
  [paths.statistics, '/statistics'],
  [paths.settings.answers, '/settings/answers'],
  [paths.settings.notifications, '/settings/notifications'],
  [paths.settings.persons, '/settings/persons'],
  [paths.settings.users, '/settings/users'],
  [paths.person.daily('p1'), '/person/p1/daily'],
  [paths.person.notes('p1'), '/person/p1/notes'],
  [paths.person.settings.overview('p1'), '/person/p1/settings'],
  [paths.person.settings.answers('p1'), '/person/p1/settings/answers'],
  [paths.person.settings.general('p1'), '/person/p1/settings/general'],
  [paths.person.settings.notifications('p1'), '/person/p1/settings/notifications'],
  [paths.person.settings.features('p1'), '/person/p1/settings/settings'],
  [paths.person.settings.accessLog('p1'), '/person/p1/settings/access-log'],
  [paths.create.person, '/create/person'],
  [paths.create.personGeneral, '/create/person/general'],
  [paths.create.personAnswers, '/create/person/answers'],
  [paths.create.personSettings, '/create/person/settings'],
  [paths.create.user, '/create/user'],
  [paths.create.userGeneral, '/create/user/general'],
  [paths.admin.index, '/admin'],
  [paths.admin.location('l1'), '/admin/location/l1'],
  [paths.admin.location('l1', 'features'), '/admin/location/l1/features'],
  [paths.admin.personSettings('p1'), '/admin/person/p1/settings'],
  [paths.admin.personAccessLog('p1'), '/admin/person/p1/settings/access-log'],
]

test.each(URLS)('the builder yields %s', (built, expected) => {
  expect(built).toBe(expected)
})

/** The full pattern of the deepest route the router matches for `url` (`*`: only the not-found page). */
function matchedPattern(url: string): string {
  const matches = matchRoutes(routes, url) ?? []
  return matches
    .map((match) => match.route.path)
    .filter((path) => path !== undefined)
    .join('/')
}

test.each(URLS)('the router matches %s with a pattern of the paths module, not the not-found page', (built) => {
  const pattern = matchedPattern(built)
  expect(pattern).not.toBe('*')
  expect(Object.values(patterns)).toContain(`/${pattern}`)
})

test('an id is encoded in the path, so it stays one segment', () => {
  expect(paths.person.daily('a/b c')).toBe('/person/a%2Fb%20c/daily')
})

test('a route pattern outside its parent is refused when the router is built', () => {
  expect(childPath(patterns.personDaily, patterns.person)).toBe('daily')
  expect(childPath(patterns.daily)).toBe('daily')
  expect(() => childPath(patterns.daily, patterns.person)).toThrow()
})
