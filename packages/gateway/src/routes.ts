import type { IncomingMessage, ServerResponse } from 'node:http';
import { openAIError } from './protocols/chat-completions';
import { anthropicMessages, estimateInputTokens } from './protocols/messages';
import { readBody, sendJson } from './http';

/** The gateway's routes besides the model calls: what agents ask before they call (token counts, the model list). */

/** POST /v1/messages/count_tokens: Anthropic's estimate, which Claude Code asks for before a call. */
export async function countTokens(req: IncomingMessage, res: ServerResponse, maxRequestBytes: number): Promise<void> {
  const body = await readBody(req, maxRequestBytes).catch(() => null);
  if (body === null)
    return sendJson(res, 413, anthropicMessages.error(413, 'request_too_large', 'the request body is too large'));
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return sendJson(res, 400, anthropicMessages.error(400, 'invalid_json', 'the request body is not JSON'));
  }
  sendJson(res, 200, { input_tokens: estimateInputTokens(parsed) });
}

/** GET /v1/models: the one model this gateway answers with, in both OpenAI's and Anthropic's fields. */
export function listModels(res: ServerResponse, model: string): void {
  const created = Math.floor(Date.now() / 1000);
  const entry = { id: model, object: 'model', created, owned_by: 'gitbench', type: 'model', display_name: model };
  sendJson(res, 200, { object: 'list', data: [{ ...entry, created_at: new Date(created * 1000).toISOString() }] });
}

export function notServed(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  const served = 'POST /v1/chat/completions, /v1/responses, /v1/messages; GET /v1/models';
  sendJson(res, 404, openAIError(404, 'not_found', `${req.method ?? ''} ${req.url ?? ''} is not served (${served})`));
}

export function gatewayFailed(res: ServerResponse, error: unknown): void {
  const message = `the gateway failed: ${error instanceof Error ? error.message : String(error)}`;
  sendJson(res, 500, openAIError(500, 'internal', message));
}
