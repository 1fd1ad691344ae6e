import { ConfigurationError } from '@gitbench/core';
import { createAgentChat } from './agent-chat';
import { createAnthropicProvider } from './anthropic';
import { createOllamaProvider } from './ollama';
import { createOpenAICompatibleProvider, type AdapterOptions } from './openai-compatible';
import { createMockProvider, createOracleProvider, createSimulatedProvider } from './scripted';
import type { Provider } from './types';

/** The provider a configured profile's kind names, on the adapter options the registry built for it. */
export function createProfileProvider(adapter: AdapterOptions): Provider {
  const { profile } = adapter;
  switch (profile.provider) {
    case 'openai':
    case 'openrouter':
      return {
        ...createOpenAICompatibleProvider(adapter),
        chat: createAgentChat(adapter, (profile.baseUrl ?? 'https://api.openai.com/v1').replace(/\/+$/, '')),
      };
    case 'ollama':
      // Agent turns go through Ollama's OpenAI-compatible API, which takes tools (and refuses them for models
      // without).
      return {
        ...createOllamaProvider(adapter),
        chat: createAgentChat(
          adapter,
          `${(profile.baseUrl ?? 'http://127.0.0.1:11434').replace(/\/+$/, '').replace(/\/v1$/, '')}/v1`,
        ),
      };
    case 'anthropic':
      return createAnthropicProvider(adapter);
    case 'mock':
      return createMockProvider();
    case 'oracle':
      return createOracleProvider();
    case 'simulated':
      return createSimulatedProvider({ seed: 0 });
    case 'replay':
      throw new ConfigurationError(
        'replay_needs_file',
        `Profile '${profile.name}': use --model replay:<result file> for replay.`,
      );
  }
}
