/**
 * A location of a spec's own, written beside the app with firebase-admin (the emulators need no
 * Google credentials): a staff account that works only there, its persons with chosen creation
 * times, a location answer option and any raw registration documents, so a journey counts exactly
 * what it wrote — not the demo data, nor what other specs add to the demo locations.
 */
import { type App, deleteApp, initializeApp } from 'firebase-admin/app'
import { getAuth } from 'firebase-admin/auth'
import { type Firestore, initializeFirestore } from 'firebase-admin/firestore'
import { DEMO_PASSWORD } from './fixtures.ts'

export async function asAdmin<T>(step: (db: Firestore, app: App) => Promise<T>): Promise<T> {
  const app = initializeApp(
    { projectId: process.env.FIREBASE_PROJECT_ID ?? 'demo-bosted' },
    `own-location-${Date.now()}-${Math.random()}`,
  )
  try {
    const db = initializeFirestore(app, { preferRest: true })
    // The client sends its owner token, nothing is looked up.
    db.settings({
      auth: { getRequestHeaders: async () => ({}), fetch: (url: string, init: RequestInit) => fetch(url, init) },
    } as never)
    return await step(db, app)
  } finally {
    await deleteApp(app)
  }
}

export type OwnPerson = {
  firstName: string
  lastName: string
  createdAt: string
  reminderTime?: string
  disabled?: boolean
}
export type OwnLocation = {
  locationId: string
  email: string
  staffName: string
  /** Person ids in the order given. */
  personIds: string[]
  answerId: string
}

const suffix = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`

/** A location with `persons`, a reminder time, one answer option 'God dag' (3) and a staff account. */
export async function createOwnLocation(input: {
  persons: OwnPerson[]
  reminderTime?: string | null
  role?: 'user' | 'superuser'
}): Promise<OwnLocation> {
  const tag = suffix()
  const locationId = `e2e-${tag}`
  const email = `staff-${tag}@e2e.dk`
  const staffName = 'Ida Test'
  const created = '2024-01-01T09:00:00.000Z'
  const answerId = `${locationId}-good`
  const personIds = input.persons.map((_, index) => `${locationId}-p${index + 1}`)
  await asAdmin(async (db, app) => {
    await createStaff(db, app, { email, firstName: 'Ida', lastName: 'Test', locationId, role: input.role ?? 'user' })
    await db.doc(`locations/${locationId}/answers/${answerId}`).set({
      id: answerId,
      text: 'God dag',
      value: 3,
      hidden: false,
      entity: 'location',
      createdAt: created,
    })
    for (const [index, person] of input.persons.entries())
      await db.doc(`persons/${personIds[index]}`).set({
        id: personIds[index],
        firstName: person.firstName,
        lastName: person.lastName,
        createdAt: person.createdAt,
        avatarUrl: null,
        contact: null,
        settings: {
          answerOptions: [],
          disabled: person.disabled === true,
          includePlaceAnswers: true,
          features: { all: false, freeText: false, speechToText: false, answers: false },
          notifications: person.reminderTime === undefined ? null : { reminderTime: person.reminderTime },
        },
        locale: 'da',
        locationId,
      })
    await db.doc(`locations/${locationId}`).set({
      id: locationId,
      createdAt: created,
      name: `Testhuset ${tag}`,
      logoUrl: null,
      persons: personIds,
      settings: {
        answerOptions: [answerId],
        subscription: null,
        notifications: { reminderTime: input.reminderTime === undefined ? '20:00' : input.reminderTime },
      },
    })
  })
  return { locationId, email, staffName, personIds, answerId }
}

/** A staff account that works at `locationId` only, signed in with DEMO_PASSWORD. */
async function createStaff(
  db: Firestore,
  app: App,
  staff: { email: string; firstName: string; lastName: string; locationId: string; role: 'user' | 'superuser' },
): Promise<void> {
  const { email, firstName, lastName, locationId, role } = staff
  const user = await getAuth(app).createUser({
    email,
    password: DEMO_PASSWORD,
    displayName: `${firstName} ${lastName}`,
  })
  await getAuth(app).setCustomUserClaims(user.uid, { admin: false, userRole: role })
  await db.doc(`users/${user.uid}`).set({
    id: user.uid,
    firstName,
    lastName,
    createdAt: '2024-01-01T09:00:00.000Z',
    avatarUrl: null,
    contact: { email, phone: null },
    jobRole: 'Medarbejder',
    locations: [locationId],
    userRole: role,
    settings: { disabled: false },
    locale: 'da',
  })
}

/** A second staff account of `own`'s location (a colleague on the same shift), signed in with DEMO_PASSWORD. */
export async function createColleague(own: OwnLocation, firstName: string): Promise<{ email: string; name: string }> {
  const email = `colleague-${suffix()}@e2e.dk`
  await asAdmin((db, app) =>
    createStaff(db, app, { email, firstName, lastName: 'Kollega', locationId: own.locationId, role: 'user' }),
  )
  return { email, name: `${firstName} Kollega` }
}

/** A registration document as the app writes it (or, with `omit`, as an older version might have left it). */
export function registrationDoc(
  own: OwnLocation,
  personId: string,
  day: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    personId,
    locationId: own.locationId,
    day,
    createdAt: `${day}T10:00:00.000Z`,
    createdBy: 'e2e',
    createdByName: 'Ida Test',
    answerId: own.answerId,
    text: 'God dag',
    value: 3,
    entity: 'location',
    ...extra,
  }
}

/** Writes registration documents (paths persons/{personId}/registrations/{auto id}); undefined fields are left out. */
export async function writeRegistrations(docs: Record<string, unknown>[]): Promise<void> {
  await asAdmin(async (db) => {
    for (const doc of docs) {
      const fields = Object.fromEntries(Object.entries(doc).filter(([, value]) => value !== undefined))
      await db.collection(`persons/${String(doc.personId)}/registrations`).add(fields)
    }
  })
}

/** A diary entry document as the app writes it; `extra` may add or (with undefined) drop fields. */
export function noteDoc(
  own: OwnLocation,
  personId: string,
  day: string,
  text: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    personId,
    locationId: own.locationId,
    day,
    createdAt: `${day}T11:00:00.000Z`,
    createdBy: 'e2e',
    text,
    source: 'keyboard',
    authorName: 'Ida Test',
    ...extra,
  }
}

/** Writes diary entry documents (paths persons/{personId}/notes/{auto id}); undefined fields are left out. */
export async function writeNotes(docs: Record<string, unknown>[]): Promise<void> {
  await asAdmin(async (db) => {
    for (const doc of docs) {
      const fields = Object.fromEntries(Object.entries(doc).filter(([, value]) => value !== undefined))
      await db.collection(`persons/${String(doc.personId)}/notes`).add(fields)
    }
  })
}

/** The Copenhagen day of an instant, 'YYYY-MM-DD'. */
export const copenhagenDay = (instant: Date): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Copenhagen' }).format(instant)

export const addDays = (day: string, days: number): string => {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number]
  return new Date(Date.UTC(year, month - 1, date + days)).toISOString().slice(0, 10)
}
