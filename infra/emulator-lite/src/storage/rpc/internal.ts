import type { Ctx } from '../../http/core.ts'
import { readJson } from '../../http/server.ts'
import type { StorageService } from '../service.ts'

/** `POST /internal/reset`: deletes every object and upload session (management). */
export function reset(s: StorageService, c: Ctx): Response {
  c.env.incoming.resume()
  s.store.clearObjects()
  s.uploads.clear()
  return c.body(null, 200)
}

/** `PUT|POST /internal/setRules` (@firebase/rules-unit-testing): `{rules: {files: [{name, content}]}}` (management). */
export async function setRules(s: StorageService, c: Ctx): Promise<Response> {
  s.rulesets.setFromRequest('firebase.storage', await readJson(c.env.incoming))
  return c.body(null, 200)
}
