// The person's (or staff member's) picture: the shared one of web/src/lib/avatars, as the persons pages use it.
export { PersonAvatar } from '../../../lib/avatars/person-avatar.tsx'
