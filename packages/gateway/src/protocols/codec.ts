import type { GatewayProtocol } from '@gitbench/core';
import type { BackendAnswer, GatewayTurn } from '../conversation';

/** One inbound protocol: its request read into the neutral turn, an answer rendered back, its error body. */
export interface ProtocolCodec {
  protocol: GatewayProtocol;
  /** Throws GatewayRequestError naming the field that is wrong. */
  parse(body: unknown): GatewayTurn;
  render(answer: BackendAnswer, turn: GatewayTurn): unknown;
  /** The whole event stream as SSE text, and the response it assembles to (what is recorded). */
  stream(answer: BackendAnswer, turn: GatewayTurn): { events: string; assembled: unknown };
  /** The protocol's error body; `code` is machine-readable (`budget_exhausted`, `rate_limited`, ...). */
  error(status: number, code: string, message: string): unknown;
}

export function sseData(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

export function sseEvent(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
