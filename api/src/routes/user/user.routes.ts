import {
  CreateUserRequestSchema,
  CustomClaimsSchema,
  GetUserByIdQuerySchema,
  roleRank,
  SetRoleRequestSchema,
  TemporaryPasswordRequestSchema,
  USER_ROLES,
  type UserRole,
} from '@bosted/domain'
import { ANSWERS, LOCATIONS, personPath, userPath } from '@bosted/domain/paths'
import type { UserRecord } from 'firebase-admin/auth'
import { Hono } from 'hono'
import * as z from 'zod/mini'
import { type Caller, canCreateUsers, canReadUser, isAdmin, isDocumentId } from '../../lib/access.ts'
import { loadTargetFacts } from '../../lib/caller.ts'
import type { Firebase } from '../../lib/firebase.ts'
import { httpError } from '../../lib/http-error.ts'
import { assertPasswordAllowed, mustChangePassword, setAccountPassword } from '../../lib/passwords.ts'
import type { AppEnv } from '../../lib/types.ts'
import { type CallerEnv, requireCaller } from '../../middleware/require-caller.ts'
import { requireSession } from '../../middleware/require-session.ts'
import { validateJson, validateParams, validateQuery } from '../../middleware/validate.ts'

type UserEnv = CallerEnv

const UserIdParamsSchema = z.object({ id: z.string().check(z.minLength(1), z.maxLength(128)) })
const RemoveUserRequestSchema = z.object({ userId: z.string().check(z.minLength(1), z.maxLength(128)) })
/** How long after its creation an account counts as a failed creation's, removable by /remove. */
const REMOVABLE_FOR_MS = 10 * 60_000
const SetRoleSchema = SetRoleRequestSchema.check(
  z.refine((body) => body.admin === (body.userRole === 'admin'), {
    path: ['admin'],
    message: "admin must be true exactly when userRole is 'admin'",
  }),
)

/** The auth user, or 404 `not_found`. */
async function getAuthUser(c: { var: AppEnv['Variables'] }, uid: string): Promise<UserRecord> {
  try {
    return await c.var.services.firebase.auth.getUser(uid)
  } catch (error) {
    const code = (error as { code?: unknown }).code
    if (code === 'auth/user-not-found' || code === 'auth/invalid-uid') throw httpError('not_found')
    throw error
  }
}

/**
 * Whether the caller may set a temporary password for the target (docs/decisions/0023-passwords.md):
 * an admin for anyone but themselves; a superuser for employees and persons of their own locations
 * (whom they may create), never for a superuser or an admin. One's own password is changed, not set.
 */
async function mayManagePassword(firebase: Firebase, caller: Caller, record: UserRecord): Promise<boolean> {
  if (record.uid === caller.uid) return false
  if (isAdmin(caller)) return true
  if (!isDocumentId(record.uid)) return false
  const [facts, userDocument] = await Promise.all([
    loadTargetFacts(firebase, caller, record.uid),
    firebase.db.doc(userPath(record.uid)).get(),
  ])
  const storedRole = userDocument.get('userRole') as unknown
  const role = USER_ROLES.find((value) => value === storedRole) ?? 'user'
  const claims = CustomClaimsSchema.safeParse(record.customClaims ?? {})
  const targetRank = roleRank(role, claims.success ? claims.data : {})
  return targetRank < roleRank(caller.role, caller.claims) && canReadUser(caller, record.uid, facts)
}

const toUserData = (record: UserRecord) => ({
  uid: record.uid,
  email: record.email ?? null,
  displayName: record.displayName ?? null,
  disabled: record.disabled,
  customClaims: record.customClaims ?? {},
})

export const userRoutes = new Hono<UserEnv>()
  .use(requireSession)
  .get(
    '/getUserById',
    // A user with a temporary password reads their own claims to be sent to the change.
    requireCaller(() => true, { whilePasswordChangeRequired: true }),
    validateQuery(GetUserByIdQuerySchema),
    async (c) => {
      const { firebase } = c.var.services
      const { id } = c.req.valid('query')
      const { caller } = c.var
      if (mustChangePassword(caller.claims) && caller.uid !== id) throw httpError('password_change_required')
      // Access is decided before existence, so staff cannot probe for ids outside their locations.
      if (!isAdmin(caller) && caller.uid !== id) {
        if (!canReadUser(caller, id, await loadTargetFacts(firebase, caller, id))) throw httpError('forbidden')
      }
      return c.json({ data: toUserData(await getAuthUser(c, id)) })
    },
  )
  .post('/create', requireCaller(canCreateUsers), validateJson(CreateUserRequestSchema), async (c) => {
    const { email, password, displayName, avatarUrl } = c.req.valid('json')
    assertPasswordAllowed(c.var.services.config, password, email)
    try {
      const record = await c.var.services.firebase.auth.createUser({
        email,
        password,
        displayName,
        ...(avatarUrl ? { photoURL: avatarUrl } : {}),
      })
      return c.json({ statusCode: 200 as const, body: { userId: record.uid } })
    } catch (error) {
      const code = (error as { code?: unknown }).code
      if (code === 'auth/email-already-exists') throw httpError('email_exists')
      const field = {
        'auth/invalid-email': 'email',
        'auth/invalid-password': 'password',
        'auth/invalid-display-name': 'displayName',
        'auth/invalid-photo-url': 'avatarUrl',
      }[String(code)]
      if (field) throw httpError('invalid_request', { fields: { [field]: [(error as Error).message] } })
      throw error
    }
  })
  // Undoes a creation that failed after its account was made (REQ-DATA-2 compound actions): only a
  // fresh account no staff document uses and no location lists, whose person document (if any) is at
  // one of the caller's locations. That person document and its answers go with it.
  .post('/remove', requireCaller(canCreateUsers), validateJson(RemoveUserRequestSchema), async (c) => {
    const { firebase } = c.var.services
    const { userId } = c.req.valid('json')
    const { caller } = c.var
    if (!isDocumentId(userId)) throw httpError('not_found')
    const record = await getAuthUser(c, userId)
    const [user, person] = await Promise.all([
      firebase.db.doc(userPath(userId)).get(),
      firebase.db.doc(personPath(userId)).get(),
    ])
    const personLocation = person.get('locationId') as unknown
    const locationOk =
      !person.exists ||
      isAdmin(caller) ||
      (typeof personLocation === 'string' && caller.locations.includes(personLocation))
    // Listed anywhere (not only at the person document's location): the account is in use.
    const listed = await firebase.db.collection(LOCATIONS).where('persons', 'array-contains', userId).limit(1).get()
    const isListed = !listed.empty
    const isFresh = Date.now() - Date.parse(record.metadata.creationTime) < REMOVABLE_FOR_MS
    if (user.exists || isListed || !locationOk || !isFresh) throw httpError('forbidden')
    if (person.exists) {
      const answers = await person.ref.collection(ANSWERS).get()
      await Promise.all(answers.docs.map((answer) => answer.ref.delete()))
      await person.ref.delete()
    }
    await firebase.auth.deleteUser(userId)
    return c.json({ data: { uid: userId } })
  })
  // A temporary password for someone the caller manages; they must change it at their next sign-in,
  // and every session they had ends.
  .put(
    '/:id/temporary-password',
    requireCaller(canCreateUsers),
    validateParams(UserIdParamsSchema),
    validateJson(TemporaryPasswordRequestSchema),
    async (c) => {
      const { firebase, config, sessions } = c.var.services
      const { id } = c.req.valid('param')
      const { password } = c.req.valid('json')
      const record = await getAuthUser(c, id)
      if (!(await mayManagePassword(firebase, c.var.caller, record))) throw httpError('forbidden')
      assertPasswordAllowed(config, password, record.email)
      await setAccountPassword(firebase, id, password, true)
      sessions.forget(undefined, id, 0)
      return c.json({ data: { uid: id } })
    },
  )
  .put(
    '/:id/role',
    requireCaller(isAdmin),
    validateParams(UserIdParamsSchema),
    validateJson(SetRoleSchema),
    async (c) => {
      const { firebase } = c.var.services
      const { id } = c.req.valid('param')
      const { userRole, admin } = c.req.valid('json')
      const record = await getAuthUser(c, id)
      if (!isDocumentId(id)) throw httpError('not_found')
      const userRef = firebase.db.doc(userPath(id))
      // The document first, inside a transaction (it must exist: persons have none), then the claims;
      // if the claims cannot be written the document gets its old role back.
      const previousRole = await firebase.db.runTransaction(async (transaction) => {
        const snapshot = await transaction.get(userRef)
        if (!snapshot.exists) throw httpError('not_found')
        transaction.update(userRef, { userRole })
        return snapshot.get('userRole') as UserRole | undefined
      })
      const customClaims = { ...(record.customClaims ?? {}), admin, userRole }
      try {
        await firebase.auth.setCustomUserClaims(id, customClaims)
      } catch (error) {
        await userRef.update({ userRole: previousRole ?? 'user' })
        throw error
      }
      return c.json({ data: { uid: id, userRole, customClaims } })
    },
  )
