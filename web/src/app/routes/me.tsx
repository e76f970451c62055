import { DEFAULT_LOCATION_FEATURES } from '@bosted/domain/location-features'
import { da } from '@bosted/domain/messages/da'
import type { Person } from '@bosted/domain/person'
import { Link } from 'react-router-dom'
import { useSnapshot } from 'valtio'
import { Page } from '../../components/ui/page.tsx'
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
import { addDays, formatDay, today } from '../../lib/days.ts'
import { RouteLoading } from '../layout/route-loading.tsx'

const LAST_DAYS = 7

/**
 * "Min dag": the one page a person (borger) sees. A greeting, and only what their features allow:
 * today's question, their own diary (typed and/or dictated), and their own last seven days.
 */
export function Component() {
  const { user } = useSnapshot(session)
  const id = user?.id ?? ''
  const person = usePerson(id, { enabled: id !== '' })
  if (person.isError || (person.data === null && !person.isPending))
    return <LoadFailed onRetry={() => void person.refetch()} />
  if (person.data == null) return <RouteLoading />
  return <MyDay person={person.data} />
}

function MyDay({ person }: { person: Person }) {
  const day = today()
  const from = addDays(day, -(LAST_DAYS - 1))
  const locationId = person.locationId ?? ''
  const shared = useSharedFeatures(locationId)
  const abilities = personAbilities(person, shared.data ?? DEFAULT_LOCATION_FEATURES)
  // A person cannot read their location's document, so the location's options come in their default order.
  const isReady = locationId === '' || shared.data !== undefined
  const options = useAnswerOptions(isReady && abilities.answers ? person : null, { id: locationId, answerOptions: [] })
  const registrations = usePersonRegistrations(person.id, from, day)
  const notes = usePersonNotes(person.id, from, day)
  if (locationId !== '' && shared.data === undefined)
    return shared.isError ? <LoadFailed onRetry={() => void shared.refetch()} /> : <RouteLoading />
  const name = personName(person)
  const nothing = !abilities.answers && !abilities.freeText && !abilities.speechToText
  return (
    <Page title={da.me.title}>
      <div className="me">
        <div className="me__greeting">
          <PersonAvatar person={person} size="large" />
          <div>
            <p className="me__hello">{da.me.greeting(person.firstName)}</p>
            <p className="me__date">{formatDay(day)}</p>
          </div>
        </div>
        {nothing && <p className="me__card">{da.me.noFeatures}</p>}
        {abilities.answers && (
          <TodaysQuestion person={person} name={name} day={day} options={options.data} loading={<RouteLoading />} />
        )}
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
        {registrations.data === undefined || notes.data === undefined ? (
          <RouteLoading />
        ) : (
          <LastDays personId={person.id} registrations={registrations.data.items} notes={notes.data.items} />
        )}
        <p>
          <Link to="/password">{da.passwords.menuItem}</Link>
        </p>
      </div>
    </Page>
  )
}

function LoadFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <Page title={da.me.title}>
      <div className="notice notice--error" role="alert">
        <p>{da.me.loadFailed}</p>
        <button type="button" className="button button--secondary" onClick={onRetry}>
          {da.me.retry}
        </button>
      </div>
    </Page>
  )
}
