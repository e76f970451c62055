import {
  type Answer,
  LocationAnswerSchema,
  LocationSchema,
  NoteSchema,
  PersonAnswerSchema,
  type PersonFeatures,
  PersonSchema,
  RegistrationSchema,
  UserSchema,
} from '@bosted/domain'
import { displayName } from '@bosted/domain/names'
import {
  ANSWERS,
  COLLECTION_IDS,
  type CollectionId,
  LOCATIONS as LOCATIONS_COLLECTION,
  locationAnswersPath,
  locationLogoObject,
  locationPath,
  NOTES,
  notesPath,
  PERSONS,
  personAnswersPath,
  personAvatarObject,
  personPath,
  REGISTRATIONS,
  registrationsPath,
  USERS,
  userAvatarObject,
  userPath,
} from '@bosted/domain/paths'
import {
  LOCATION_SCALES,
  LOW_VALUE_COMMENTS,
  type OptionFixture,
  PERSON_THEMES,
  THEME_SETS,
} from '../fixtures/answers.ts'
import { avatarSvg, logoSvg } from '../fixtures/images.ts'
import { FIRST_NAMES, LAST_NAMES } from '../fixtures/names.ts'
import {
  ABSENCE_AFTER,
  ABSENCE_BEFORE,
  FOLLOW_UPS,
  type Mood,
  OWN_SENTENCES,
  STAFF_SENTENCES,
} from '../fixtures/notes.ts'
import { type Random, random, stableToken } from '../fixtures/prng.ts'
import { addDays, copenhagenTime, weekday } from '../lib/dates.ts'
import {
  HISTORY_DAYS,
  LOCATIONS,
  type LocationFixture,
  PASSWORD,
  personEmail,
  personUid,
  STAFF,
  type StaffFixture,
} from './world.ts'

export type DocKind = CollectionId
export const DOC_KINDS: readonly DocKind[] = COLLECTION_IDS

export type PlannedDoc = { kind: DocKind; path: string; data: Record<string, unknown> }
export type PlannedFile = { path: string; content: string; contentType: string; token: string }
export type PlannedAuthUser = {
  uid: string
  email: string
  password: string
  displayName: string
  customClaims: Record<string, unknown> | null
}

export type Dataset = {
  today: string
  authUsers: PlannedAuthUser[]
  files: PlannedFile[]
  docs: PlannedDoc[]
}

export type BuildOptions = {
  /** Today in Europe/Copenhagen, 'YYYY-MM-DD'; every date is relative to it. */
  today: string
  /** The URL a browser downloads a Storage object from. */
  downloadUrl: (path: string, token: string) => string
}

type Story = 'improving' | 'declining' | 'dip' | 'stable' | 'weekend' | 'volatile' | 'recovering'
const STORIES: readonly Story[] = ['improving', 'declining', 'dip', 'stable', 'weekend', 'volatile', 'recovering']

const FEATURE_PROFILES: readonly Partial<PersonFeatures>[] = [
  { answers: true },
  { answers: true, freeText: true },
  { answers: true, freeText: true, speechToText: true },
  { all: true, answers: true, freeText: true, speechToText: true },
  {},
  { freeText: true },
  { answers: true, speechToText: true },
]

/** How well a day went for a story, 0 (bad) … 1 (good), `daysAgo` from today. */
function storyLevel(story: Story, daysAgo: number, day: string): number {
  const progress = (HISTORY_DAYS - 1 - daysAgo) / (HISTORY_DAYS - 1)
  switch (story) {
    case 'improving':
      return 0.3 + 0.5 * progress
    case 'declining':
      return 0.78 - 0.42 * progress
    case 'dip':
      return 0.72 - 0.45 * Math.exp(-((daysAgo - 35) ** 2) / (2 * 6 ** 2))
    case 'stable':
      return 0.62
    case 'weekend': {
      const dayOfWeek = weekday(day)
      return dayOfWeek === 0 || dayOfWeek === 6 ? 0.38 : 0.68
    }
    case 'volatile':
      return 0.5 + 0.25 * Math.sin(daysAgo / 5)
    case 'recovering':
      return daysAgo > 45 ? 0.33 : 0.33 + 0.45 * Math.min(1, (45 - daysAgo) / 20)
  }
}

function moodOf(level: number): Mood {
  if (level >= 0.62) return 'good'
  if (level < 0.42) return 'bad'
  return 'neutral'
}

/** The visible option that best matches a level (options sorted best first). */
function optionFor(options: readonly Answer[], level: number): Answer {
  const visible = options.filter((option) => !option.hidden).sort((a, b) => b.value - a.value)
  const index = Math.round((1 - Math.min(1, Math.max(0, level))) * (visible.length - 1))
  return visible[index] as Answer
}

function fill(template: string, name: string): string {
  return template.replaceAll('{name}', name)
}

function phoneNumber(rng: Random): string {
  const digits = `${rng.int(2, 9)}${Array.from({ length: 7 }, () => rng.int(0, 9)).join('')}`
  return `+45 ${digits.replace(/(\d{2})(?=\d)/g, '$1 ')}`
}

function at(day: string, rng: Random, fromMinutes: number, toMinutes: number): string {
  return copenhagenTime(day, rng.int(fromMinutes, toMinutes))
}

function answerDoc(
  schema: typeof PersonAnswerSchema | typeof LocationAnswerSchema,
  id: string,
  option: OptionFixture,
  createdAt: string,
): Answer {
  return schema.parse({ id, text: option.text, value: option.value, hidden: option.hidden ?? false, createdAt })
}

/**
 * The whole demo world as plain data, validated with the domain schemas (so every default of
 * REQ-PERSON, REQ-LOCATION and REQ-USER is present). Pure: the same `today` always gives the same dataset.
 */
export function buildDataset(options: BuildOptions): Dataset {
  const { today, downloadUrl } = options
  const docs: PlannedDoc[] = []
  const files: PlannedFile[] = []
  const authUsers: PlannedAuthUser[] = []
  const addFile = (path: string, content: string, contentType: string) => {
    const token = stableToken(path)
    files.push({ path, content, contentType, token })
    return downloadUrl(path, token)
  }

  const staffAt = (locationId: string) => STAFF.filter((staff) => staff.locations.includes(locationId))
  const names = random('names').shuffle(
    FIRST_NAMES.flatMap((first) => LAST_NAMES.map((last) => [first, last] as const)),
  )

  STAFF.forEach((staff, index) => {
    const avatarUrl = addFile(
      userAvatarObject(staff.uid, 'avatar.svg'),
      avatarSvg(staff.firstName, staff.lastName, index + 5),
      'image/svg+xml',
    )
    const user = UserSchema.parse({
      id: staff.uid,
      firstName: staff.firstName,
      lastName: staff.lastName,
      createdAt: copenhagenTime(addDays(today, -(1200 - index * 150)), 9 * 60),
      avatarUrl,
      contact: { email: staff.email, phone: staff.phone },
      jobRole: staff.jobRole,
      locations: [...staff.locations],
      userRole: staff.userRole,
      settings: { disabled: false },
      locale: 'da',
    })
    docs.push({ kind: USERS, path: userPath(staff.uid), data: user })
    authUsers.push({
      uid: staff.uid,
      email: staff.email,
      password: PASSWORD,
      displayName: displayName(staff),
      customClaims: { admin: staff.admin, userRole: staff.userRole },
    })
  })

  let personNumber = 0
  LOCATIONS.forEach((location, locationIndex) => {
    const locationRng = random(`location:${location.id}`)
    const locationCreatedAt = copenhagenTime(addDays(today, -location.createdDaysAgo), 10 * 60)
    const scale = (LOCATION_SCALES[location.id] ?? []).map((option) =>
      answerDoc(LocationAnswerSchema, `${location.id}-${option.key}`, option, locationCreatedAt),
    )
    for (const answer of scale) {
      docs.push({ kind: ANSWERS, path: `${locationAnswersPath(location.id)}/${answer.id}`, data: answer })
    }
    const stories = locationRng.shuffle(STORIES)
    const staff = staffAt(location.id)
    const personIds: string[] = []
    for (let index = 0; index < location.personCount; index += 1) {
      personNumber += 1
      const [firstName, lastName] = names[personNumber - 1] as readonly [string, string]
      const person = buildPerson({
        today,
        location,
        scale,
        staff,
        number: personNumber,
        firstName,
        lastName,
        story: stories[index % stories.length] as Story,
        // The last person of each location has moved out: disabled, history ending three weeks ago.
        disabledDaysAgo: index === location.personCount - 1 ? 20 : null,
        // One person per location was away a few days (a gap in the statistics, with notes around it).
        absence: index === 1 ? { from: 52 + locationIndex * 3, days: 3 + locationIndex } : null,
        addFile,
      })
      personIds.push(person.id)
      docs.push(...person.docs)
      authUsers.push(person.authUser)
    }
    const logoUrl = addFile(
      locationLogoObject(location.id, 'logo.svg'),
      logoSvg(location.name, location.mark, locationIndex),
      'image/svg+xml',
    )
    const subscription = location.subscription
    const doc = LocationSchema.parse({
      id: location.id,
      createdAt: locationCreatedAt,
      name: location.name,
      logoUrl,
      persons: personIds,
      settings: {
        answerOptions: scale.map((answer) => answer.id),
        subscription: {
          amount: subscription.amount,
          createdAt: copenhagenTime(addDays(today, -subscription.createdDaysAgo), 11 * 60),
          validUntil: copenhagenTime(addDays(today, subscription.validForDays), 23 * 60 + 59),
        },
        notifications: { reminderTime: location.reminderTime },
      },
    })
    docs.push({ kind: LOCATIONS_COLLECTION, path: locationPath(location.id), data: doc })
  })

  return { today, authUsers, files, docs }
}

type PersonInput = {
  today: string
  location: LocationFixture
  scale: Answer[]
  staff: StaffFixture[]
  number: number
  firstName: string
  lastName: string
  story: Story
  disabledDaysAgo: number | null
  absence: { from: number; days: number } | null
  addFile: (path: string, content: string, contentType: string) => string
}

function buildPerson(input: PersonInput): { id: string; docs: PlannedDoc[]; authUser: PlannedAuthUser } {
  const { today, location, scale, staff, number, firstName, lastName, story } = input
  const id = personUid(number)
  const email = personEmail(number)
  const rng = random(`person:${id}`)
  const docs: PlannedDoc[] = []

  const createdAt = at(addDays(today, -rng.int(120, 700)), rng, 9 * 60, 15 * 60)
  const themes = rng.pick(THEME_SETS)
  const options = themes.map((theme) =>
    (PERSON_THEMES[theme] ?? []).map((option) =>
      answerDoc(PersonAnswerSchema, `${id}-${option.key}`, option, createdAt),
    ),
  )
  for (const answer of options.flat()) {
    docs.push({ kind: ANSWERS, path: `${personAnswersPath(id)}/${answer.id}`, data: answer })
  }

  const features = FEATURE_PROFILES[(number * 3 + rng.int(0, 1)) % FEATURE_PROFILES.length] ?? {}
  const includePlaceAnswers = !rng.chance(0.25)
  const canWrite = features.freeText === true || features.speechToText === true
  const avatarUrl = input.addFile(
    personAvatarObject(id, 'avatar.svg'),
    avatarSvg(firstName, lastName, number),
    'image/svg+xml',
  )
  const person = PersonSchema.parse({
    id,
    firstName,
    lastName,
    createdAt,
    avatarUrl,
    contact: { email, phone: rng.chance(0.7) ? phoneNumber(rng) : null },
    settings: {
      answerOptions: options.flat().map((answer) => answer.id),
      disabled: input.disabledDaysAgo !== null,
      includePlaceAnswers,
      features,
      notifications: rng.chance(0.4) ? { reminderTime: rng.pick(['19:00', '20:00', '20:30']) } : null,
    },
    locale: 'da',
    locationId: location.id,
  })
  docs.push({ kind: PERSONS, path: personPath(id), data: person })

  const missingToday = rng.chance(0.25)
  const absence = input.absence
  const isAway = (daysAgo: number) =>
    absence !== null && daysAgo <= absence.from && daysAgo > absence.from - absence.days
  const lastDay = input.disabledDaysAgo ?? 0

  for (let daysAgo = HISTORY_DAYS - 1; daysAgo >= lastDay; daysAgo -= 1) {
    const day = addDays(today, -daysAgo)
    const dayRng = random(`day:${id}:${daysAgo}`)
    const key = `d${String(daysAgo).padStart(2, '0')}`
    // Today is under way: registrations so far are from the morning, and some persons are still missing.
    const [from, to] = daysAgo === 0 ? [7 * 60, 10 * 60] : [8 * 60, 21 * 60 + 30]
    // Days the notes tell about (leaving, coming back, moving out) always have data.
    const isStoryDay =
      daysAgo === input.disabledDaysAgo ||
      (absence !== null && (daysAgo === absence.from + 1 || daysAgo === absence.from - absence.days))
    const isMissing = daysAgo === 0 ? missingToday : !isStoryDay && dayRng.chance(0.05)
    if (isAway(daysAgo) || isMissing) continue

    const level = storyLevel(story, daysAgo, day) + dayRng.normal() * (story === 'volatile' ? 0.16 : 0.1)
    const author = (ownChance: number): { uid: string; name: string } => {
      if (features.answers && dayRng.chance(ownChance)) return { uid: id, name: displayName({ firstName, lastName }) }
      const member = dayRng.pick(staff)
      return { uid: member.uid, name: displayName(member) }
    }

    const given: { answer: Answer; level: number }[] = []
    if (includePlaceAnswers) given.push({ answer: optionFor(scale, level), level })
    options.forEach((themeOptions, themeIndex) => {
      if (themeIndex > 0 && !dayRng.chance(0.8)) return
      const themeLevel = level + dayRng.normal() * 0.12
      const answer =
        themeOptions.length === 2
          ? // medicine: taken on most days, missed more often on bad days
            (themeOptions[dayRng.chance(0.55 + 0.45 * themeLevel) ? 0 : 1] as Answer)
          : optionFor(themeOptions, themeLevel)
      given.push({ answer, level: themeLevel })
    })
    given.forEach(({ answer }, index) => {
      const lowest = Math.min(...(answer.entity === 'location' ? scale : options.flat()).map((option) => option.value))
      const comment =
        answer.value === lowest && answer.entity === 'location' && dayRng.chance(0.35)
          ? dayRng.pick(LOW_VALUE_COMMENTS)
          : undefined
      // createdAt draws from the day's random numbers before the author, as it always has.
      const createdAt = at(day, dayRng, from, to)
      const by = author(0.5)
      const registration = RegistrationSchema.parse({
        personId: id,
        locationId: location.id,
        answerId: answer.id,
        text: answer.text,
        value: answer.value,
        entity: answer.entity,
        ...(comment === undefined ? {} : { comment }),
        day,
        createdAt,
        createdBy: by.uid,
        createdByName: by.name,
      })
      docs.push({ kind: REGISTRATIONS, path: `${registrationsPath(id)}/${key}-${index + 1}`, data: registration })
    })

    const notes: { text: string; source: 'keyboard' | 'speech'; by: { uid: string; name: string } }[] = []
    const mood = moodOf(level)
    if (absence !== null && daysAgo === absence.from + 1) {
      notes.push({ text: fill(ABSENCE_BEFORE, firstName), source: 'keyboard', by: author(0) })
    } else if (absence !== null && daysAgo === absence.from - absence.days) {
      notes.push({ text: fill(ABSENCE_AFTER, firstName), source: 'keyboard', by: author(0) })
    } else if (daysAgo === input.disabledDaysAgo) {
      notes.push({
        text: `Sidste dag på ${location.name}. ${firstName} flytter i egen bolig med bostøtte fra i morgen.`,
        source: 'keyboard',
        by: author(0),
      })
    } else if (dayRng.chance(mood === 'bad' ? 0.8 : 0.5)) {
      const followUp = dayRng.chance(mood === 'bad' ? 0.6 : 0.25) ? ` ${fill(dayRng.pick(FOLLOW_UPS), firstName)}` : ''
      notes.push({
        text: fill(dayRng.pick(STAFF_SENTENCES[mood]), firstName) + followUp,
        source: 'keyboard',
        by: author(0),
      })
    }
    if (canWrite && dayRng.chance(0.35)) {
      const speech = features.speechToText === true && (features.freeText !== true || dayRng.chance(0.5))
      notes.push({
        text: dayRng.pick(OWN_SENTENCES[mood]),
        source: speech ? 'speech' : 'keyboard',
        by: { uid: id, name: displayName({ firstName, lastName }) },
      })
    }
    notes.forEach((note, index) => {
      const doc = NoteSchema.parse({
        personId: id,
        locationId: location.id,
        text: note.text,
        day,
        source: note.source,
        createdAt: at(day, dayRng, from, to),
        createdBy: note.by.uid,
        authorName: note.by.name,
      })
      docs.push({ kind: NOTES, path: `${notesPath(id)}/${key}-${index + 1}`, data: doc })
    })
  }

  return {
    id,
    docs,
    authUser: {
      uid: id,
      email,
      password: PASSWORD,
      displayName: displayName({ firstName, lastName }),
      customClaims: null,
    },
  }
}
