/**
 * The model gateway (issue #27): third-party coding agents in a sandbox without network reach one
 * model through a Unix socket, in their own protocol, while the key, the records and the budget stay
 * in the worker. See README.md for the routes, the backends and the seam with the engine.
 */
export {
  startModelGateway,
  DEFAULT_GATEWAY_LIMITS,
  type GatewayLimits,
  type GatewaySpent,
  type ModelGateway,
  type ModelGatewayOptions,
} from './gateway';
export {
  askBackend,
  backendFailure,
  type BackendFailure,
  type BuiltinBackend,
  type GatewayBackend,
  type ProviderBackend,
  type ShellTool,
} from './backends';
export { BudgetTracker, type BudgetLimit, type GatewayBudget } from './budget';
export { GatewayRequestError, type BackendAnswer, type GatewayTurn } from './conversation';
export { chatCompletions } from './protocols/chat-completions';
export { responses } from './protocols/responses';
export { anthropicMessages } from './protocols/messages';
export type { ProtocolCodec } from './protocols/codec';
