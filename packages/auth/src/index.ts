export { createAuth, deriveSecret, type Auth, type AuthConfig, type OidcConfig } from './create-auth';
export {
  createUser,
  createFirstAdmin,
  setPassword,
  updateUser,
  userCount,
  UserError,
  type NewUser,
  type UserChange,
  type UserChangeResult,
} from './users';
export {
  createApiToken,
  listApiTokens,
  revokeApiToken,
  resolveApiToken,
  hashToken,
  TOKEN_PREFIX,
  TokenManagementRefused,
  type TokenManager,
  type NewApiToken,
  type TokenActor,
} from './api-tokens';
export { resolveActor, type Actor, type ActorResult } from './actor';
export { isSameOrigin, isJsonContentType } from './same-origin';
