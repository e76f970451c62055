import { apiSend } from '../../../lib/api-client.ts'

/**
 * Moves a person to another location through the api (admin only): the person's locationId, both
 * locations' `persons` in one transaction, and the location of the person's registrations and notes,
 * so the new location's staff see the history and the old one's no longer do.
 */
export async function movePerson(personId: string, locationId: string): Promise<void> {
  await apiSend(`/person/${encodeURIComponent(personId)}/location`, { method: 'PUT', body: { locationId } })
}

/** Turns a person's sign-in off or on: the Auth account and `settings.disabled` (admin only, api). */
export async function setPersonSignIn(personId: string, disabled: boolean): Promise<void> {
  await apiSend(`/person/${encodeURIComponent(personId)}/disabled`, { method: 'PUT', body: { disabled } })
}
