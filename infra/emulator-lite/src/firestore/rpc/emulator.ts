import type { Ctx } from '../../http/core.ts'
import { readJson } from '../../http/server.ts'
import type { FirestoreService } from '../service.ts'

const param = (c: Ctx, pattern: RegExp, index: number) =>
  decodeURIComponent(pattern.exec(c.get('url').pathname)?.[index] as string)

/** `DELETE /emulator/v1/projects/{p}/databases/{d}/documents`: wipes a database (management). */
export function clearDatabase(fs: FirestoreService, c: Ctx) {
  const pattern = /^\/emulator\/v1\/projects\/([^/]+)\/databases\/([^/]+)\/documents\/?$/
  fs.store.clearDatabase(param(c, pattern, 1), param(c, pattern, 2))
  return {}
}

/** `PUT /emulator/v1/projects/{p}:securityRules`: replaces a project's rules (management). */
export async function putSecurityRules(fs: FirestoreService, c: Ctx) {
  const project = param(c, /^\/emulator\/v1\/projects\/([^/]+):securityRules$/, 1)
  fs.rulesets.setFromRequest('cloud.firestore', await readJson(c.env.incoming), project)
  return {}
}
