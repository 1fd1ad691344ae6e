import { z } from 'zod';

/**
 * A Chat Completions request as an OpenAI-compatible client sends it, read by the manual model's
 * endpoint. Only what a person needs to answer is typed; every other field is kept as it came
 * (looseObject), since "the full request" must be shown exactly as the model would have seen it.
 */
const textPartSchema = z.looseObject({ type: z.string(), text: z.string().optional() });

export const wireToolCallSchema = z.looseObject({
  id: z.string(),
  type: z.literal('function').optional(),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});
export type WireToolCall = z.infer<typeof wireToolCallSchema>;

export const wireMessageSchema = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
  content: z.union([z.string(), z.array(textPartSchema), z.null()]).optional(),
  tool_calls: z.array(wireToolCallSchema).optional(),
  tool_call_id: z.string().optional(),
  name: z.string().optional(),
});
export type WireMessage = z.infer<typeof wireMessageSchema>;

export const wireToolSchema = z.looseObject({
  type: z.literal('function'),
  function: z.looseObject({
    name: z.string().min(1),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type WireTool = z.infer<typeof wireToolSchema>;

export const chatRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(wireMessageSchema).min(1, 'A request needs at least one message.'),
  tools: z.array(wireToolSchema).optional(),
  stream: z.boolean().optional(),
  response_format: z.looseObject({ type: z.string() }).optional(),
});
export type ChatRequest = z.infer<typeof chatRequestSchema>;

/** A message's text: a string, or the text parts of a content array joined. */
export function messageText(message: WireMessage): string {
  const { content } = message;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => p.text ?? `[${p.type}]`).join('\n');
  return '';
}
