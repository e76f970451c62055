import type { Answer } from '@bosted/domain/answer'
import { DEFAULT_LOCATION_FEATURES } from '@bosted/domain/location-features'
import { da } from '@bosted/domain/messages/da'
import type { Person } from '@bosted/domain/person'
import { Link } from 'react-router-dom'
import { useSnapshot } from 'valtio'
import { Page } from '../../components/ui/page.tsx'
import { QueryState } from '../../components/ui/query-state.tsx'
import { useAnswerOptions } from '../../features/answers/api/get-answer-options.ts'
import { useSharedFeatures } from '../../features/locations/api/get-shared-features.ts'
import { usePersonNotes } from '../../features/notes/api/get-person-notes.ts'
import { MyDiary } from '../../features/notes/components/my-diary.tsx'
import { usePerson } from '../../features/persons/api/get-person.ts'
import { PersonAvatar } from '../../features/persons/components/person-avatar.tsx'
import { personAbilities } from '../../features/persons/person-features.ts'
import { personName } from '../../features/persons/person-name.ts'
import { usePersonRegistrations } from '../../features/registrations/api/get-person-registrations.ts'
import { LastDays } from '../../features/registrations/components/last-days.tsx'
import { TodaysQuestion } from '../../features/registrations/components/todays-question.tsx'
import { session } from '../../features/session/session-store.ts'
import { formatDay, today } from '../../lib/days.ts'
import { paths } from '../../lib/paths.ts'
import { myDaysFrom } from '../me-range.ts'

/**
 * "Min dag": the one page a person (borger) sees. A greeting, and only what their features allow:
 * today's question, their own diary (typed and/or dictated), and their own last seven days.
 */
export function Component() {
  const { user } = useSnapshot(session)
  const id = user?.id ?? ''
  const person = usePerson(id, { enabled: id !== '' })
  // No record of their own is a failure too: nothing to show but "Prøv igen".
  const own = { ...person, data: person.data ?? undefined, isError: person.isError || person.data === null }
  return (
    <Page title={da.me.title}>
      <QueryState query={own} errorMessage={da.me.loadFailed} report="Min dag could not be loaded">
        {(found) => <MyDay person={found} />}
      </QueryState>
    </Page>
  )
}

function MyDay({ person }: { person: Person }) {
  const day = today()
  const from = myDaysFrom(day)
  const locationId = person.locationId ?? ''
  const shared = useSharedFeatures(locationId)
  // Without a location the defaults apply (nothing to read).
  const features = locationId === '' ? { ...shared, data: DEFAULT_LOCATION_FEATURES, isError: false } : shared
  const abilities = personAbilities(person, features.data ?? DEFAULT_LOCATION_FEATURES)
  // A person cannot read their location's document, so the location's options come in their default order.
  const options = useAnswerOptions(features.data !== undefined && abilities.answers ? person : null, {
    id: locationId,
    answerOptions: [],
  })
  const registrations = usePersonRegistrations(person.id, from, day)
  const notes = usePersonNotes(person.id, from, day)
  return (
    <QueryState query={features} errorMessage={da.me.loadFailed} report="Min dag could not be loaded">
      {() => (
        <MyDayCards
          person={person}
          day={day}
          abilities={abilities}
          options={options.data}
          lastDays={[registrations, notes]}
        />
      )}
    </QueryState>
  )
}

type CardsProps = {
  person: Person
  day: string
  abilities: ReturnType<typeof personAbilities>
  options: Answer[] | undefined
  lastDays: [ReturnType<typeof usePersonRegistrations>, ReturnType<typeof usePersonNotes>]
}

function MyDayCards({ person, day, abilities, options, lastDays }: CardsProps) {
  const name = personName(person)
  const nothing = !abilities.answers && !abilities.freeText && !abilities.speechToText
  return (
    <div className="me">
      <div className="me__greeting">
        <PersonAvatar person={person} size="large" />
        <div>
          <p className="me__hello">{da.me.greeting(person.firstName)}</p>
          <p className="me__date">{formatDay(day)}</p>
        </div>
      </div>
      {nothing && <p className="me__card">{da.me.noFeatures}</p>}
      {abilities.answers && <TodaysQuestion person={person} name={name} day={day} options={options} />}
      {(abilities.freeText || abilities.speechToText) && (
        <MyDiary
          person={person}
          name={name}
          day={day}
          canType={abilities.freeText}
          canDictate={abilities.speechToText}
          cloudAllowed={abilities.cloudDictation}
        />
      )}
      <QueryState query={lastDays} errorMessage={da.me.loadFailed} report="Min dag could not be loaded">
        {(registrations, notes) => (
          <LastDays personId={person.id} registrations={registrations.items} notes={notes.items} />
        )}
      </QueryState>
      <p>
        <Link to={paths.password}>{da.passwords.menuItem}</Link>
      </p>
    </div>
  )
}
