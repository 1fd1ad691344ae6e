import type { WireTool } from './chat-request';

/**
 * A person's answer to a request, as typed in the terminal or posted by a program playing the model:
 *
 *   text: <anything>            a text answer (the prefix is needed only where it would read as a call)
 *   bash: git log --oneline     a call of a tool that takes one string argument; the rest, lines
 *                               included, is that argument
 *   str_replace {"path": …}     a call with JSON arguments (a colon after the name is allowed where the tool
 *                               has no single string argument)
 *   submit                      a call of a tool whose arguments may all be empty
 *   {"name": …, "arguments": …} or a JSON array of them, or {"content": …, "tool_calls": […]}
 *
 * Without tools in the request every answer is text. Tool names and arguments are checked against the
 * request's tools, so a typo is told to the person instead of becoming the model's malformed call.
 */

export interface ManualToolCall {
  name: string;
  /** JSON text of the arguments, as a model's call carries them. */
  arguments: string;
}

export interface ManualAnswer {
  content: string | null;
  toolCalls: ManualToolCall[];
}

export class ManualAnswerError extends Error {
  override readonly name = 'ManualAnswerError';
}

interface ParameterSchema {
  type?: unknown;
  enum?: unknown;
}
interface ObjectSchema {
  properties?: Record<string, ParameterSchema>;
  required?: unknown;
  additionalProperties?: unknown;
}

function schemaOf(tool: WireTool): ObjectSchema {
  return (tool.function.parameters ?? {}) as ObjectSchema;
}

function requiredOf(tool: WireTool): string[] {
  const required = schemaOf(tool).required;
  return Array.isArray(required) ? required.filter((r): r is string => typeof r === 'string') : [];
}

/** `bash(command: string)`: how a tool's arguments are named in messages. */
export function signatureOf(tool: WireTool): string {
  const required = new Set(requiredOf(tool));
  const props = Object.entries(schemaOf(tool).properties ?? {}).map(
    ([name, p]) => `${name}${required.has(name) ? '' : '?'}: ${typeof p.type === 'string' ? p.type : 'any'}`,
  );
  return `${tool.function.name}(${props.join(', ')})`;
}

function typeMatches(value: unknown, type: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'null':
      return value === null;
    default:
      return true; // a type this check does not know: the tool's own parser decides
  }
}

/** Checks arguments against the tool's JSON Schema as far as tools here use it (types, required, enum, extras). */
export function checkArguments(tool: WireTool, args: unknown): Record<string, unknown> {
  const name = tool.function.name;
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new ManualAnswerError(`${name}: the arguments must be a JSON object (${signatureOf(tool)}).`);
  }
  const record = args as Record<string, unknown>;
  const schema = schemaOf(tool);
  const props = schema.properties ?? {};
  for (const required of requiredOf(tool)) {
    if (!(required in record))
      throw new ManualAnswerError(`${name}: argument '${required}' is missing (${signatureOf(tool)}).`);
  }
  for (const [key, value] of Object.entries(record)) {
    const prop = props[key];
    if (!prop) {
      if (schema.additionalProperties === false)
        throw new ManualAnswerError(`${name}: there is no argument '${key}' (${signatureOf(tool)}).`);
      continue;
    }
    const types = Array.isArray(prop.type) ? prop.type : prop.type === undefined ? [] : [prop.type];
    if (types.length > 0 && !types.some((t) => typeMatches(value, t))) {
      throw new ManualAnswerError(
        `${name}: argument '${key}' must be ${types.join(' or ')}, ` +
          `not ${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value}.`,
      );
    }
    if (Array.isArray(prop.enum) && !prop.enum.includes(value)) {
      throw new ManualAnswerError(
        `${name}: argument '${key}' must be one of ${prop.enum.map((e) => JSON.stringify(e)).join(', ')}.`,
      );
    }
  }
  return record;
}

function toolNamed(tools: readonly WireTool[], name: string): WireTool {
  const tool = tools.find((t) => t.function.name === name);
  if (!tool) {
    throw new ManualAnswerError(
      `There is no tool '${name}' in this request (it ` +
        `offers ${tools.map((t) => t.function.name).join(', ')}). Start a text answer with 'text:'.`,
    );
  }
  return tool;
}

/** The one string argument `name: value` fills: the tool's only required argument, or its only argument; else null. */
function soleStringArgumentOf(tool: WireTool): string | null {
  const props = Object.entries(schemaOf(tool).properties ?? {});
  const required = requiredOf(tool);
  const candidates = required.length > 0 ? required : props.map(([n]) => n);
  const sole = candidates.length === 1 ? candidates[0]! : null;
  const type = sole ? schemaOf(tool).properties?.[sole]?.type : undefined;
  return sole && (type === undefined || type === 'string') ? sole : null;
}

function soleStringArgument(tool: WireTool): string {
  const sole = soleStringArgumentOf(tool);
  if (!sole) {
    throw new ManualAnswerError(
      `${tool.function.name} takes more than one string argument ` +
        `(${signatureOf(tool)}): write ${tool.function.name} {"…": …} with JSON arguments.`,
    );
  }
  return sole;
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ManualAnswerError(`${what} is not valid JSON: ${(error as Error).message}`);
  }
}

function call(tools: readonly WireTool[], name: string, args: unknown): ManualToolCall {
  const tool = toolNamed(tools, name);
  return { name, arguments: JSON.stringify(checkArguments(tool, args)) };
}

/**
 * `{"name", "arguments"}` or the wire's `{"function": {"name", "arguments"}}`; arguments an object or its JSON text.
 */
function jsonCall(tools: readonly WireTool[], value: unknown, where: string): ManualToolCall {
  const v = (value ?? {}) as {
    name?: unknown;
    arguments?: unknown;
    function?: { name?: unknown; arguments?: unknown };
  };
  const inner = typeof v.function === 'object' && v.function !== null ? v.function : v;
  if (typeof inner.name !== 'string') throw new ManualAnswerError(`${where}: a tool call needs "name" (a string).`);
  const args =
    typeof inner.arguments === 'string'
      ? parseJson(inner.arguments, `${where}: the arguments of ${inner.name}`)
      : (inner.arguments ?? {});
  return call(tools, inner.name, args);
}

function jsonAnswer(tools: readonly WireTool[], text: string): ManualAnswer {
  const value = parseJson(text, 'The answer');
  if (Array.isArray(value)) {
    if (value.length === 0)
      throw new ManualAnswerError('An empty list calls no tool: write text, or at least one call.');
    return { content: null, toolCalls: value.map((c, i) => jsonCall(tools, c, `call ${i + 1}`)) };
  }
  const v = value as { name?: unknown; function?: unknown; content?: unknown; tool_calls?: unknown };
  if (typeof v !== 'object' || v === null)
    throw new ManualAnswerError(
      'A JSON answer is a tool call, a list of calls or a message ({"content", "tool_calls"}).',
    );
  if (v.name !== undefined || v.function !== undefined)
    return { content: null, toolCalls: [jsonCall(tools, v, 'call 1')] };
  if (v.content !== undefined && v.content !== null && typeof v.content !== 'string')
    throw new ManualAnswerError('"content" must be a string or null.');
  if (v.tool_calls !== undefined && !Array.isArray(v.tool_calls))
    throw new ManualAnswerError('"tool_calls" must be a list.');
  const calls = ((v.tool_calls as unknown[] | undefined) ?? []).map((c, i) => jsonCall(tools, c, `call ${i + 1}`));
  const content = typeof v.content === 'string' ? v.content : null;
  if (content === null && calls.length === 0)
    throw new ManualAnswerError('The message has neither "content" nor "tool_calls".');
  return { content, toolCalls: calls };
}

const CALL_HEAD = /^([A-Za-z_][A-Za-z0-9_.-]*)(?::(?:[ \t]|\n|$)|[ \t]*(?=\{)|[ \t]*$)/;
const LOOKS_LIKE_CALL = /^([a-z_][a-z0-9_]*):(?:[ \t]|$)/;

export function parseManualAnswer(raw: string, tools: readonly WireTool[] = []): ManualAnswer {
  const text = raw.replace(/\s+$/, '');
  if (text.trim() === '') throw new ManualAnswerError('The answer is empty: write text, or a tool call.');
  const explicit = /^text:[ \t]?/.exec(text);
  if (explicit) return { content: text.slice(explicit[0].length), toolCalls: [] };
  if (tools.length === 0) return { content: text, toolCalls: [] };

  const body = text.replace(/^\s+/, '');
  if (body.startsWith('{') || body.startsWith('[')) return jsonAnswer(tools, body);

  const head = CALL_HEAD.exec(body);
  const named = head ? tools.find((t) => t.function.name === head[1]) : undefined;
  if (head && named) {
    const rest = body.slice(head[0].length);
    const jsonArguments = rest.trimStart().startsWith('{');
    // `write_file: {"path": …}` reads as JSON arguments, as `write_file {…}` does, where the tool has no single
    // string argument for the colon to fill: the colon form is what a person (or a calibrating program) tries first.
    if (body[head[1]!.length] === ':' && !(jsonArguments && soleStringArgumentOf(named) === null))
      return { content: null, toolCalls: [call(tools, head[1]!, { [soleStringArgument(named)]: rest })] };
    if (jsonArguments)
      return { content: null, toolCalls: [call(tools, head[1]!, parseJson(rest, `The arguments of ${head[1]}`))] };
    if (rest.trim() === '') {
      // `submit` alone: no arguments, or an empty one where the tool takes a single string.
      const required = requiredOf(named);
      return {
        content: null,
        toolCalls: [call(tools, head[1]!, required.length === 0 ? {} : { [soleStringArgument(named)]: '' })],
      };
    }
  }
  const lookalike = LOOKS_LIKE_CALL.exec(body);
  if (lookalike) toolNamed(tools, lookalike[1]!);
  return { content: text, toolCalls: [] };
}
