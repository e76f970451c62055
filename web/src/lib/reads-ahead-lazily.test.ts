import { expect, test } from 'vitest'
import { paths, patterns, readsAheadLazily } from './paths.ts'

test('Dagbøger, both of Statistik’s addresses and Administration read ahead through page-data-lazy; other pages not', () => {
  for (const path of [paths.notes, paths.statistics, patterns.statisticsOverview, paths.admin.index])
    expect(readsAheadLazily(path), path).toBe(true)
  for (const path of [paths.daily, paths.me, paths.login, paths.person.daily('p1')])
    expect(readsAheadLazily(path), path).toBe(false)
})
