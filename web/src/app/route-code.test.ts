import './../test/setup.ts'
import { expect, test } from 'vitest'
import { patterns } from '../lib/paths.ts'
import { fitsPattern, routeCode, routeCodeFor } from './route-code.ts'
import { matchedRouteCode } from './router.tsx'

/** route-code.ts's names for importers, to compare lists by name. */
const names = new Map<unknown, string>(Object.entries(routeCode).map(([name, importer]) => [importer, name]))
const named = (importers: unknown[]) =>
  importers.map((importer) => names.get(importer) ?? 'an importer not in routeCode')

/** A URL of `pattern`, its parameters filled in (the admin location's id spans two segments). */
const sample = (pattern: string) => pattern.replace(':id', 'p-1').replace('*', 'kommune/solsikken')

test.each(Object.entries(patterns))(
  "%s: the code the entry fetches ahead is the router's for the same URL",
  (_name, pattern) => {
    const url = sample(pattern)
    expect(named(routeCodeFor(url))).toEqual(named(matchedRouteCode(url)))
    // Every pattern renders a page, or at least its layouts.
    expect(routeCodeFor(url).length).toBeGreaterThan(0)
  },
)

test('every route module is the code of some URL', () => {
  const used = new Set(Object.values(patterns).flatMap((pattern) => named(routeCodeFor(sample(pattern)))))
  expect([...used].sort()).toEqual(Object.keys(routeCode).sort())
})

test('URLs match as the router matches them', () => {
  expect(named(routeCodeFor('/daily/'))).toEqual(['appShell', 'daily'])
  expect(named(routeCodeFor('/admin/location/a/b/general'))).toEqual(['appShell', 'adminLocation'])
  expect(named(routeCodeFor('/person/p-1/settings/access-log'))).toEqual([
    'appShell',
    'personLayout',
    'personSettingsLayout',
    'personSettingsAccessLog',
  ])
  expect(routeCodeFor('/no-such-page')).toEqual([])
  expect(routeCodeFor('/person/p-1/daily/extra')).toEqual([])
  expect(fitsPattern(patterns.adminLocation, '/admin/location')).toBe(false)
  expect(fitsPattern(patterns.personDaily, '/person//daily')).toBe(false)
})
