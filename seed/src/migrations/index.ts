import { locationAnswerDefaults } from './001-location-answer-defaults.ts'
import { careRecordLocations } from './002-care-record-locations.ts'
import type { Migration } from './migration.ts'

/** Every migration, in the order they run. */
export const MIGRATIONS: readonly Migration[] = [locationAnswerDefaults, careRecordLocations]
