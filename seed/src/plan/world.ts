import { DEMO_PASSWORD, type UserRole } from '@bosted/domain'

/** The fixed shape of the demo world: who works where, and how many persons live where. */
export type LocationFixture = {
  id: string
  name: string
  mark: 'sun' | 'tree' | 'wave'
  personCount: number
  createdDaysAgo: number
  reminderTime: string | null
  subscription: { amount: number; createdDaysAgo: number; validForDays: number }
}

export const LOCATIONS: readonly LocationFixture[] = [
  {
    id: 'solsikken',
    name: 'Bostedet Solsikken',
    mark: 'sun',
    personCount: 12,
    createdDaysAgo: 900,
    reminderTime: '20:00',
    subscription: { amount: 4500, createdDaysAgo: 185, validForDays: 180 },
  },
  {
    id: 'egebakken',
    name: 'Egebakken',
    mark: 'tree',
    personCount: 9,
    createdDaysAgo: 620,
    reminderTime: '21:00',
    subscription: { amount: 3200, createdDaysAgo: 320, validForDays: 45 },
  },
  {
    // The expired subscription: the admin area shows it as such.
    id: 'fjordhuset',
    name: 'Fjordhuset',
    mark: 'wave',
    personCount: 14,
    createdDaysAgo: 1100,
    reminderTime: null,
    subscription: { amount: 5800, createdDaysAgo: 377, validForDays: -12 },
  },
]

export type StaffFixture = {
  uid: string
  email: string
  firstName: string
  lastName: string
  jobRole: string
  userRole: UserRole
  admin: boolean
  locations: readonly string[]
  phone: string
}

export const STAFF: readonly StaffFixture[] = [
  {
    uid: 'demo-admin',
    email: 'admin@demo.dk',
    firstName: 'Birgitte',
    lastName: 'Holm',
    jobRole: 'Leder',
    userRole: 'admin',
    admin: true,
    locations: ['solsikken', 'egebakken', 'fjordhuset'],
    phone: '+45 20 11 22 33',
  },
  {
    uid: 'demo-superbruger',
    email: 'superbruger@demo.dk',
    firstName: 'Jesper',
    lastName: 'Kjær',
    jobRole: 'Afdelingsleder',
    userRole: 'superuser',
    admin: false,
    locations: ['solsikken', 'egebakken'],
    phone: '+45 30 44 55 66',
  },
  {
    uid: 'demo-medarbejder',
    email: 'medarbejder@demo.dk',
    firstName: 'Signe',
    lastName: 'Dahl',
    jobRole: 'Social- og sundhedsassistent',
    userRole: 'employee',
    admin: false,
    locations: ['solsikken'],
    phone: '+45 40 77 88 99',
  },
]

export const PASSWORD = DEMO_PASSWORD

/** Days of registrations and notes, today included. */
export const HISTORY_DAYS = 90

export function personUid(number: number): string {
  return `demo-borger${String(number).padStart(2, '0')}`
}

export function personEmail(number: number): string {
  return `borger${String(number).padStart(2, '0')}@demo.dk`
}
