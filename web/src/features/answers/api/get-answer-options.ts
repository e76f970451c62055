import { type Answer, LocationAnswerSchema, PersonAnswerSchema } from '@bosted/domain/answer'
import { locationAnswersPath, personAnswersPath } from '@bosted/domain/paths'
import type { Person } from '@bosted/domain/person'
import { type QueryClient, queryOptions, skipToken, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { parseRecords } from '../../../lib/parse-records.ts'
import { whenIdle } from '../../../lib/when-idle.ts'
import { orderAnswerOptions } from '../answer-options.ts'
import { answerKeys } from './keys.ts'

/** A person's own options (persons/{id}/answers), each fitting its schema (a misfit is left out and warned about). */
async function readOwnAnswers(personId: string): Promise<Answer[]> {
  const [db, { collection, getDocs }] = await Promise.all([getDb(), firestoreLite()])
  const { docs } = await getDocs(collection(db, personAnswersPath(personId)))
  return parseRecords('answers', docs, (document) => PersonAnswerSchema.parse({ ...document.data(), id: document.id }))
    .items
}

/** A location's options (locations/{id}/answers), as `readOwnAnswers`. */
async function readPlaceAnswers(locationId: string): Promise<Answer[]> {
  const [db, { collection, getDocs }] = await Promise.all([getDb(), firestoreLite()])
  const { docs } = await getDocs(collection(db, locationAnswersPath(locationId)))
  return parseRecords('answers', docs, (document) =>
    LocationAnswerSchema.parse({ ...document.data(), id: document.id }),
  ).items
}

type OptionsLocation = { id: string; answerOptions: readonly string[] }
type Asked = Pick<Person, 'id' | 'settings'>

const options = (person: Asked, location: OptionsLocation, own: Answer[], place: Answer[]) =>
  orderAnswerOptions({
    own,
    ownOrder: person.settings.answerOptions,
    place,
    placeOrder: location.answerOptions,
    includePlaceAnswers: person.settings.includePlaceAnswers,
  })

/**
 * The options a person can be registered with: their own, plus the location's when
 * `includePlaceAnswers`, without hidden ones, in `settings.answerOptions` order (ADR 0003).
 */
export async function getAnswerOptions(person: Asked, location: OptionsLocation): Promise<Answer[]> {
  const [own, place] = await Promise.all([
    readOwnAnswers(person.id),
    person.settings.includePlaceAnswers ? readPlaceAnswers(location.id) : [],
  ])
  return options(person, location, own, place)
}

/** Options change rarely; a dialog opened again within five minutes shows them at once. */
const ANSWER_OPTIONS_STALE_MS = 5 * 60_000

// The two halves of a person's options, each kept on its own: one read of a location's serves all its persons.
const half = (queryKey: readonly string[], read: () => Promise<Answer[]>) =>
  queryOptions({ queryKey, queryFn: read, staleTime: ANSWER_OPTIONS_STALE_MS })
const ownQuery = (personId: string) => half(answerKeys.own(personId), () => readOwnAnswers(personId))
const placeQuery = (locationId: string) => half(answerKeys.place(locationId), () => readPlaceAnswers(locationId))

/**
 * One half, read (or taken while fresh); offline, as last read. A person who has no options of their
 * own listed (`settings.answerOptions`, which every option made in the app joins) has none offline.
 */
async function readHalf(client: QueryClient, query: ReturnType<typeof half>, noneListed: boolean): Promise<Answer[]> {
  if (navigator.onLine) return client.fetchQuery(query)
  const known = client.getQueryData(query.queryKey)
  if (known !== undefined) return known
  if (noneListed) return []
  throw new Error('the answer options were not read before the connection went')
}

async function keptAnswerOptions(client: QueryClient, person: Asked, location: OptionsLocation): Promise<Answer[]> {
  const [own, place] = await Promise.all([
    readHalf(client, ownQuery(person.id), person.settings.answerOptions.length === 0),
    person.settings.includePlaceAnswers ? readHalf(client, placeQuery(location.id), false) : [],
  ])
  return options(person, location, own, place)
}

/**
 * The options `person` can be registered with at `location`; none asked for while `person` is null
 * (a dialog that is closed). `isDialog`: kept five minutes, so a dialog opened again shows them at once.
 * They are also there offline once read (docs/decisions/0033-offline-writes.md): a registration can be
 * made without a connection.
 */
export function useAnswerOptions(
  person: Asked | null,
  location: OptionsLocation,
  { isDialog = false }: { isDialog?: boolean } = {},
) {
  const client = useQueryClient()
  return useQuery({
    queryKey: answerKeys.options(person?.id ?? '', location.id),
    queryFn: person === null ? skipToken : () => keptAnswerOptions(client, person, location),
    // Run offline too: what was read before answers then.
    networkMode: 'always',
    ...(isDialog ? { staleTime: ANSWER_OPTIONS_STALE_MS } : {}),
  })
}

/**
 * Reads, once the page is idle, what the register dialogs of `persons` need: the location's options
 * (one read) and the own options of those who have any listed. A dialog opened without a connection
 * then has its options.
 */
export function useAnswerOptionsAhead(persons: readonly Asked[] | undefined, locationId: string | null): void {
  const client = useQueryClient()
  const own = (persons ?? []).filter((person) => person.settings.answerOptions.length > 0).map((person) => person.id)
  const ownKey = own.join()
  const isReady = persons !== undefined && locationId !== null
  // biome-ignore lint/correctness/useExhaustiveDependencies: ownKey names the persons read
  useEffect(() => {
    if (!isReady) return
    const read = () => {
      void client.prefetchQuery(placeQuery(locationId))
      for (const personId of own) void client.prefetchQuery(ownQuery(personId))
    }
    return whenIdle(read, 2_000)
  }, [client, isReady, locationId, ownKey])
}
