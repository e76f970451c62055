import {
  expandStatistics,
  StatisticsResponseSchema,
  type StatNote,
  type StatRegistration,
} from '@bosted/domain/statistics'
import { api } from '../../../lib/api-client.ts'

/** What Statistik's figures take for a period: its registrations and the period before's, its diary entries. */
export type StatisticsData = {
  /** The period's registrations and those of the period before it (for the trend). */
  registrations: StatRegistration[]
  notes: StatNote[]
  /** The location's diary entries in the period before, counted. */
  previousNoteCount: number
  skipped: { registrations: number; notes: number }
}

/**
 * A location's figures' data from the api (ADR 0027): `GET /api/statistics`, which reads only the
 * fields the figures use and answers compact JSON, expanded here into the records the figures take.
 */
export async function getStatistics(locationId: string, from: string, to: string): Promise<StatisticsData> {
  const query = new URLSearchParams({ locationId, from, to })
  const { data: statistics } = await api(`/statistics?${query}`, StatisticsResponseSchema)
  return { ...expandStatistics(statistics), previousNoteCount: statistics.previousNotes, skipped: statistics.skipped }
}
