import * as z from 'zod/mini'
import { DEFAULT_USER_FIRST_NAME, DEFAULT_USER_LAST_NAME } from './constants.ts'
import { ContactSchema } from './person.ts'
import { EmailSchema, FirstNameSchema, JobRoleSchema, NameSchema, PasswordSchema } from './validation.ts'

/** Stored role values; 'user' is the spec's default and means an employee. */
export const USER_ROLES = ['user', 'employee', 'superuser', 'admin'] as const
export type UserRole = (typeof USER_ROLES)[number]
export const DEFAULT_JOB_ROLE = 'Not specified'
export const CREATION_FORM_JOB_ROLE = 'Medarbejder'

export const CustomClaimsSchema = z.catchall(
  z.object({
    admin: z.optional(z.boolean()),
    userRole: z.optional(z.enum(USER_ROLES)),
    /** Set with a temporary password: the account must choose its own before anything else. */
    mustChangePassword: z.optional(z.boolean()),
  }),
  z.unknown(),
)
export type CustomClaims = z.infer<typeof CustomClaimsSchema>

/** users/{uid} */
export const UserSchema = z.object({
  id: z.string(),
  firstName: z._default(z.string(), DEFAULT_USER_FIRST_NAME),
  lastName: z._default(z.string(), DEFAULT_USER_LAST_NAME),
  createdAt: z.string(),
  avatarUrl: z._default(z.nullable(z.string()), null),
  contact: z._default(z.nullable(ContactSchema), null),
  jobRole: z._default(z.string(), DEFAULT_JOB_ROLE),
  locations: z._default(z.array(z.string()), []),
  userRole: z._default(z.enum(USER_ROLES), 'user'),
  settings: z._default(z.object({ disabled: z._default(z.boolean(), false) }), { disabled: false }),
  locale: z._default(z.nullable(z.string()), null),
})
export type User = z.infer<typeof UserSchema>

/** The user creation draft's validated part (REQ-VALID). */
export const NewUserSchema = z.object({
  firstName: FirstNameSchema,
  lastName: z._default(NameSchema, ''),
  email: EmailSchema,
  password: PasswordSchema,
  jobRole: z._default(JobRoleSchema, CREATION_FORM_JOB_ROLE),
})
export type NewUser = z.infer<typeof NewUserSchema>

/** The active user as the app sees it (REQ-MODEL-2). */
export const ActiveUserSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  customClaims: CustomClaimsSchema,
})
export type ActiveUser = z.infer<typeof ActiveUserSchema>

/** Role order for permission checks: a higher role can do everything a lower one can. */
export function roleRank(role: UserRole, claims?: CustomClaims): number {
  if (claims?.admin === true || role === 'admin') return 3
  if (role === 'superuser') return 2
  return 1
}

/** The role a token's claims carry ('user', an employee, when none is set). */
export const roleOfClaims = (claims: CustomClaims): UserRole => claims.userRole ?? 'user'

/** Superusers and admins manage: create users, edit settings, see every diary entry and registration. */
export const canManage = (role: UserRole, claims?: CustomClaims): boolean => roleRank(role, claims) >= 2

/** Admins (by role or by the admin claim) administer everything, every location. */
export const canAdminister = (role: UserRole, claims?: CustomClaims): boolean => roleRank(role, claims) >= 3
