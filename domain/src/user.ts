import { z } from 'zod'
import { DEFAULT_USER_FIRST_NAME, DEFAULT_USER_LAST_NAME } from './constants.ts'
import { ContactSchema } from './person.ts'
import { EmailSchema, FirstNameSchema, JobRoleSchema, NameSchema, PasswordSchema } from './validation.ts'

/** Stored role values; 'user' is the spec's default and means an employee. */
export const USER_ROLES = ['user', 'employee', 'superuser', 'admin'] as const
export type UserRole = (typeof USER_ROLES)[number]
export const DEFAULT_JOB_ROLE = 'Not specified'
export const CREATION_FORM_JOB_ROLE = 'Medarbejder'

export const CustomClaimsSchema = z
  .object({
    admin: z.boolean().optional(),
    userRole: z.enum(USER_ROLES).optional(),
    /** Set with a temporary password: the account must choose its own before anything else. */
    mustChangePassword: z.boolean().optional(),
  })
  .catchall(z.unknown())
export type CustomClaims = z.infer<typeof CustomClaimsSchema>

/** users/{uid} */
export const UserSchema = z.object({
  id: z.string(),
  firstName: z.string().default(DEFAULT_USER_FIRST_NAME),
  lastName: z.string().default(DEFAULT_USER_LAST_NAME),
  createdAt: z.string(),
  avatarUrl: z.string().nullable().default(null),
  contact: ContactSchema.nullable().default(null),
  jobRole: z.string().default(DEFAULT_JOB_ROLE),
  locations: z.array(z.string()).default([]),
  userRole: z.enum(USER_ROLES).default('user'),
  settings: z.object({ disabled: z.boolean().default(false) }).default({ disabled: false }),
  locale: z.string().nullable().default(null),
})
export type User = z.infer<typeof UserSchema>

/** The user creation draft's validated part (REQ-VALID). */
export const NewUserSchema = z.object({
  firstName: FirstNameSchema,
  lastName: NameSchema.default(''),
  email: EmailSchema,
  password: PasswordSchema,
  jobRole: JobRoleSchema.default(CREATION_FORM_JOB_ROLE),
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
