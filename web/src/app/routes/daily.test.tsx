import '../../test/setup.ts'
import { PersonSchema } from '@bosted/domain/person'
import { screen, within } from '@testing-library/react'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { clearActiveLocation, type LocationSummary } from '../../features/locations/locations-store.ts'
import { getLocationPersons } from '../../features/persons/api/get-location-persons.ts'
import { getDayRegistrations } from '../../features/registrations/api/get-day-registrations.ts'
import { session } from '../../features/session/session-store.ts'
import { renderRoute } from '../../test/render-route.tsx'
import { Component as Daily } from './daily.tsx'

// The locations are read for real; their Firestore is offline (only the failure test reaches it).
vi.mock('../../lib/firestore.ts', () => ({
  getDb: async () => {
    throw Object.assign(new Error('offline'), { code: 'unavailable' })
  },
  firestoreLite: async () => ({}),
}))
// Each api module's fetcher is the test's; its hook is the feature's key over that fetcher.
vi.mock('../../features/persons/api/get-location-persons.ts', async () => {
  const { queryHook } = await import('../../test/query-hook.ts')
  const getLocationPersons = vi.fn()
  const { personKeys } = await import('../../features/persons/api/keys.ts')
  return { getLocationPersons, useLocationPersons: queryHook(personKeys.location, getLocationPersons) }
})
vi.mock('../../features/registrations/api/get-day-registrations.ts', async () => {
  const { queryHook } = await import('../../test/query-hook.ts')
  const { registrationKeys } = await import('../../features/registrations/api/keys.ts')
  const getDayRegistrations = vi.fn(async () => ({
    skipped: 0,
    items: [
      {
        id: 'r1',
        personId: 'anna',
        locationId: 'a',
        day: '2025-01-06',
        createdAt: '2025-01-06T08:00:00.000Z',
        createdBy: 'u1',
        answerId: 'x',
        text: 'God dag',
        value: 3,
        entity: 'location',
      },
    ],
  }))
  return { getDayRegistrations, useDayRegistrations: queryHook(registrationKeys.day, getDayRegistrations) }
})
vi.mock('../../features/notes/api/get-day-note-counts.ts', async () => {
  const { queryHook } = await import('../../test/query-hook.ts')
  const { noteKeys } = await import('../../features/notes/api/keys.ts')
  const getDayNoteCounts = vi.fn(async () => new Map([['anna', 2]]))
  return { getDayNoteCounts, useDayNoteCounts: queryHook(noteKeys.dayCounts, getDayNoteCounts) }
})
vi.mock('../../features/staff/api/get-location-staff-names.ts', async () => {
  const { queryHook } = await import('../../test/query-hook.ts')
  const { staffKeys } = await import('../../features/staff/api/keys.ts')
  const getLocationStaffNames = vi.fn(async () => new Map([['u1', 'Signe Dahl']]))
  return { getLocationStaffNames, useStaffNames: queryHook(staffKeys.names, getLocationStaffNames) }
})

const person = (id: string, firstName: string, disabled = false) =>
  PersonSchema.parse({
    id,
    firstName,
    lastName: 'Test',
    createdAt: '2024-01-01T00:00:00.000Z',
    locationId: 'a',
    settings: { disabled },
  })

// The user's locations as the session guard leaves them in the cache; null: their read failed.
let userLocations: LocationSummary[] | null = []

function showDaily(role: 'employee' | 'superuser', search = '?day=2025-01-06') {
  session.user = { id: 'u1', firstName: 'Signe', lastName: 'Dahl', customClaims: { userRole: role }, locations: ['a'] }
  renderRoute('/daily', Daily, `/daily${search}`, ['a'], userLocations)
}

beforeEach(() => {
  userLocations = [{ id: 'a', name: 'Åbo', logoUrl: null, reminderTime: '20:00', answerOptions: [] }]
})

afterEach(() => {
  session.user = null
  clearActiveLocation()
})

test('without an active location the overview says so instead of showing an empty list', async () => {
  userLocations = []
  showDaily('employee')
  expect(
    await screen.findByText(
      'Du har ingen aktiv lokation. Vælg en lokation i toppen, eller bed en administrator om adgang.',
    ),
  ).toBeInTheDocument()
})

test('locations that could not be read are said, with Prøv igen, never taken for no location', async () => {
  userLocations = null
  showDaily('employee')
  const alert = await screen.findByRole('alert')
  expect(alert).toHaveTextContent('Dagsoversigten kunne ikke hentes.')
  expect(within(alert).getByRole('button', { name: 'Prøv igen' })).toBeInTheDocument()
  expect(screen.queryByText(/Du har ingen aktiv lokation/)).toBeNull()
})

test('a location without persons says so, and a superuser is offered Opret borger', async () => {
  vi.mocked(getLocationPersons).mockResolvedValue({ items: [], skipped: 0 })
  showDaily('superuser')
  expect(await screen.findByText('Der er ingen borgere på denne lokation endnu.')).toBeInTheDocument()
  expect(screen.getByRole('link', { name: 'Opret borger' })).toHaveAttribute('href', '/create/person')
})

test('an employee at a location without persons is not offered Opret borger', async () => {
  vi.mocked(getLocationPersons).mockResolvedValue({ items: [], skipped: 0 })
  showDaily('employee')
  expect(await screen.findByText('Der er ingen borgere på denne lokation endnu.')).toBeInTheDocument()
  expect(screen.queryByRole('link', { name: 'Opret borger' })).toBeNull()
})

test('active persons in Danish order, each with status; the summary counts who is registered and missing', async () => {
  vi.mocked(getLocationPersons).mockResolvedValue({
    items: [person('aase', 'Åse'), person('bo', 'Bo', true), person('oern', 'Ørn'), person('anna', 'Anna')],
    skipped: 0,
  })
  showDaily('employee')
  expect(await screen.findByText('1 af 3 registreret · 2 mangler')).toBeInTheDocument()
  const rows = within(screen.getByRole('list', { name: 'Borgere' })).getAllByRole('article')
  expect(rows.map((row) => within(row).getByRole('heading').textContent)).toEqual(['Anna Test', 'Ørn Test', 'Åse Test'])
  expect(within(rows[0] as HTMLElement).getByText('Registreret')).toBeInTheDocument()
  // Who registered arrives just after the rows.
  expect(await within(rows[0] as HTMLElement).findByText(/af Signe Dahl/)).toBeInTheDocument()
  expect(within(rows[0] as HTMLElement).getByRole('link', { name: '2 dagbogsnotater' })).toHaveAttribute(
    'href',
    '/person/anna/notes?day=2025-01-06',
  )
  expect(within(rows[1] as HTMLElement).getByText('Mangler registrering')).toBeInTheDocument()
  expect(within(rows[1] as HTMLElement).getByText('(påmindelse kl. 20.00)')).toBeInTheDocument()
})

test('a person created after the day is neither listed nor missing, and a record that does not fit is reported once', async () => {
  vi.mocked(getLocationPersons).mockResolvedValue({
    items: [person('anna', 'Anna'), { ...person('nils', 'Nils'), createdAt: '2025-03-01T09:00:00.000Z' }],
    skipped: 0,
  })
  vi.mocked(getDayRegistrations).mockResolvedValueOnce({ items: [], skipped: 1 })
  showDaily('employee')
  expect(await screen.findByText('0 af 1 registreret · 1 mangler · 1 oprettet senere')).toBeInTheDocument()
  expect(screen.getAllByRole('status').map((status) => status.textContent)).toContain(
    '1 registrering kunne ikke vises.',
  )
  expect(screen.queryByRole('heading', { name: 'Nils Test' })).toBeNull()
})

test('a day to come is read-only, and the Mangler filter does not claim everyone is registered', async () => {
  vi.mocked(getLocationPersons).mockResolvedValue({ items: [person('anna', 'Anna'), person('bo', 'Bo')], skipped: 0 })
  vi.mocked(getDayRegistrations).mockResolvedValueOnce({ items: [], skipped: 0 })
  showDaily('employee', '?day=2099-01-01&filter=missing')
  expect(await screen.findByText('0 af 2 registreret · 2 ikke endnu')).toBeInTheDocument()
  expect(
    screen.getByText('Dagen er ikke begyndt endnu. Der kan ikke registreres på en fremtidig dag.'),
  ).toBeInTheDocument()
  expect(screen.getByText('Ingen mangler registrering endnu. 2 borgere er ikke registreret endnu.')).toBeInTheDocument()
  expect(screen.queryByText('Alle borgere er registreret denne dag.')).toBeNull()
  expect(screen.queryByText('Ingen registreringer denne dag.')).toBeNull()
  expect(screen.queryByRole('button', { name: /^Registrer for / })).toBeNull()
})
