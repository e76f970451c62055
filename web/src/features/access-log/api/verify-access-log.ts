import { type AccessLogVerification, AccessLogVerifySchema } from '@bosted/domain/access-log'
import { api } from '../../../lib/api-client.ts'

/** Whether the log's hash chain is intact from its first entry (admins and superusers). */
export async function verifyAccessLog(): Promise<AccessLogVerification> {
  return (await api('/access-log/verify', AccessLogVerifySchema)).data
}
