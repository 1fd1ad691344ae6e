/** Agent mode's side of the providers (the types live in types.ts beside Provider, which offers `chat`). */
export type {
  AgentChatRequest,
  AgentChatResult,
  AgentMessage,
  AgentModel,
  AgentToolCall,
  AgentToolSpec,
  AgentWireProtocol,
} from './types';

/**
 * ConfigurationError code of an endpoint that refuses tool calling: under protocol `auto` the loop falls back to text.
 */
export const TOOLS_UNSUPPORTED = 'tools_unsupported';
