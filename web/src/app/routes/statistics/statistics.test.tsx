import '../../../test/setup.ts'
import { PersonSchema } from '@bosted/domain/person'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { clearActiveLocation, type LocationSummary } from '../../../features/locations/locations-store.ts'
import { getLocationPersons } from '../../../features/persons/api/get-location-persons.ts'
import { session } from '../../../features/session/session-store.ts'
import { getStatistics, type StatisticsData } from '../../../features/statistics/api/get-statistics.ts'
import { renderRoute } from '../../../test/render-route.tsx'
import { Component as Statistics } from './statistics.tsx'

// The locations are read for real; their Firestore is offline (only the failure test reaches it).
vi.mock('../../../lib/firestore.ts', () => ({
  getDb: async () => {
    throw Object.assign(new Error('offline'), { code: 'unavailable' })
  },
  firestoreLite: async () => ({}),
}))
vi.mock('../../../features/persons/api/get-location-persons.ts', async () => {
  const { queryHook } = await import('../../../test/query-hook.ts')
  const getLocationPersons = vi.fn()
  const { personKeys } = await import('../../../features/persons/api/keys.ts')
  return { getLocationPersons, useLocationPersons: queryHook(personKeys.location, getLocationPersons) }
})
vi.mock('../../../features/statistics/api/get-statistics.ts', () => ({ getStatistics: vi.fn() }))
// The charts draw with uPlot on a canvas, which jsdom has not: the report's text is what is checked.
vi.mock('../../../features/statistics/components/charts.tsx', () => ({
  CoverageChart: () => null,
  DistributionChart: () => null,
  ValuesCharts: () => null,
}))

const anna = PersonSchema.parse({
  id: 'anna',
  firstName: 'Anna',
  lastName: 'Test',
  createdAt: '2024-01-01T00:00:00.000Z',
  locationId: 'a',
  settings: {},
})
const noData: StatisticsData = {
  registrations: [],
  notes: [],
  previousNoteCount: 0,
  skipped: { registrations: 0, notes: 0 },
}
const offline = () => Object.assign(new Error('offline'), { code: 'unavailable' })

// The user's locations as the session guard leaves them in the cache; null: their read failed.
let userLocations: LocationSummary[] | null = []

function showStatistics() {
  session.user = {
    id: 'u1',
    firstName: 'Signe',
    lastName: 'Dahl',
    customClaims: { userRole: 'superuser' },
    locations: ['a'],
  }
  renderRoute('/statistics', Statistics, '/statistics?from=2025-01-01&to=2025-01-31', ['a'], userLocations)
}

beforeEach(() => {
  userLocations = [{ id: 'a', name: 'Åbo', logoUrl: null, reminderTime: '20:00', answerOptions: [] }]
  vi.mocked(getLocationPersons).mockResolvedValue({ items: [anna], skipped: 0 })
  vi.mocked(getStatistics).mockResolvedValue(noData)
})

afterEach(() => {
  session.user = null
  clearActiveLocation()
  vi.clearAllMocks()
})

test('locations that could not be read are said, with Prøv igen, never taken for no location', async () => {
  userLocations = null
  showStatistics()
  const alert = await screen.findByRole('alert')
  expect(alert).toHaveTextContent('Statistikken kunne ikke hentes.')
  expect(within(alert).getByRole('button', { name: 'Prøv igen' })).toBeInTheDocument()
  expect(screen.queryByText(/Du har ingen aktiv lokation/)).toBeNull()
})

test('without an active location Statistik says so', async () => {
  userLocations = []
  showStatistics()
  expect(await screen.findByText(/Du har ingen aktiv lokation/)).toBeInTheDocument()
  expect(getStatistics).not.toHaveBeenCalled()
})

test('figures that could not be read are said with Prøv igen, which reads again only what failed', async () => {
  vi.mocked(getStatistics).mockRejectedValueOnce(offline())
  showStatistics()
  const alert = await screen.findByRole('alert')
  expect(alert).toHaveTextContent('Statistikken kunne ikke hentes.')
  expect(screen.queryByText('Ingen registreringer i perioden.')).toBeNull()
  expect(getLocationPersons).toHaveBeenCalledTimes(1)

  await userEvent.click(within(alert).getByRole('button', { name: 'Prøv igen' }))
  expect(await screen.findByText('Ingen registreringer i perioden.')).toBeInTheDocument()
  expect(screen.queryByRole('alert')).toBeNull()
  expect(getStatistics).toHaveBeenCalledTimes(2)
  expect(getLocationPersons).toHaveBeenCalledTimes(1)
})

test('while the figures load, the period filter is there and the report waits (aria-busy)', async () => {
  let answer: (data: StatisticsData) => void = () => {}
  vi.mocked(getStatistics).mockReturnValue(
    new Promise((resolve) => {
      answer = resolve
    }),
  )
  showStatistics()
  const filters = await screen.findByRole('form', { name: 'Afgrænsning' })
  expect(document.querySelector('[aria-busy="true"]')).not.toBeNull()
  answer(noData)
  expect(await screen.findByText('Ingen registreringer i perioden.')).toBeInTheDocument()
  expect(screen.getByRole('heading', { name: 'Nøgletal' })).toBeInTheDocument()
  expect(screen.getByRole('form', { name: 'Afgrænsning' })).toBe(filters)
  expect(document.querySelector('[aria-busy="true"]')).toBeNull()
})

test('a location without persons says so instead of figures of nobody', async () => {
  vi.mocked(getLocationPersons).mockResolvedValue({ items: [], skipped: 0 })
  showStatistics()
  expect(await screen.findByText('Der er ingen borgere på denne lokation endnu.')).toBeInTheDocument()
  expect(screen.queryByRole('heading', { name: 'Nøgletal' })).toBeNull()
  expect(screen.queryByRole('form', { name: 'Afgrænsning' })).toBeNull()
})
