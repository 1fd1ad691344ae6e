import type { ServerResponse } from 'node:http';
import { compactView, previousInConversation, type ChatRequest, type ManualAnswer } from '@gitbench/core';
import { parseGiven, type MessageAnswer } from './manual-completion';
import { RequestError } from './manual-http';

export interface PendingRequest {
  id: string;
  /** 1, 2, ... in the order requests arrived. */
  seq: number;
  receivedAt: string;
  request: ChatRequest;
  /** What the terminal prints: the system prompt once per conversation, then only what is new. */
  view: string;
}

/** Who hears of requests coming and going (the terminal shows them). */
export interface PendingRequestEvents {
  /** Called as each request arrives (the terminal shows it). */
  onRequest?: (pending: PendingRequest) => void;
  /** Called when a request is answered, or given up by its client (answer null). */
  onSettled?: (pending: PendingRequest, answer: ManualAnswer | null) => void;
}

/** Requests remembered to tell a continued conversation from a new one. */
const REMEMBERED = 64;
interface Waiting extends PendingRequest {
  settle: (answer: ManualAnswer) => void;
}

const publicOf = ({ settle: _settle, ...p }: Waiting): PendingRequest => p;

/**
 * The requests waiting for a person's answer, oldest first. Each is answered once, from the terminal or
 * the side channel, whichever comes first; a client that gives up takes its request off the list.
 */
export class PendingRequests {
  private readonly waiting = new Map<string, Waiting>();
  private readonly remembered: ChatRequest[] = [];
  /** Side-channel readers waiting for the next request to arrive. */
  private readonly nextWaiters = new Set<(p: PendingRequest) => void>();
  private seq = 0;

  constructor(private readonly events: PendingRequestEvents = {}) {}

  list(): PendingRequest[] {
    return [...this.waiting.values()].sort((a, b) => a.seq - b.seq).map(publicOf);
  }

  get(id: string): PendingRequest | undefined {
    const entry = this.waiting.get(id);
    return entry ? publicOf(entry) : undefined;
  }

  /** Checks and gives the answer; a RequestError (404) for an id that is not pending. */
  answer(id: string, given: string | MessageAnswer): ManualAnswer {
    const entry = this.waiting.get(id);
    if (!entry) throw new RequestError(404, `no pending request '${id}' (answered already, or its client gave up)`);
    const parsed = parseGiven(given, entry.request);
    this.waiting.delete(id);
    entry.settle(parsed);
    this.events.onSettled?.(publicOf(entry), parsed);
    return parsed;
  }

  /** Puts a request on the list and resolves with its answer; `res` closing first gives it up. */
  admit(request: ChatRequest, res: ServerResponse): Promise<ManualAnswer> {
    const seq = ++this.seq;
    const id = `req_${seq}`;
    const previous = previousInConversation(this.remembered, request);
    const pending: PendingRequest = {
      id,
      seq,
      receivedAt: new Date().toISOString(),
      request,
      view: compactView({ request, previous, label: `request ${seq} (${id})` }),
    };
    this.remembered.push(request);
    if (this.remembered.length > REMEMBERED) this.remembered.shift();
    const answered = new Promise<ManualAnswer>((resolve) => this.waiting.set(id, { ...pending, settle: resolve }));
    // A client that gives up (its timeout, a cancelled attempt) takes its request off the list.
    res.on('close', () => {
      const entry = this.waiting.get(id);
      if (entry && !res.writableEnded) {
        this.waiting.delete(id);
        this.events.onSettled?.(publicOf(entry), null);
      }
    });
    this.events.onRequest?.(pending);
    for (const wake of this.nextWaiters) wake(pending);
    this.nextWaiters.clear();
    return answered;
  }

  /** The oldest pending request, or the next to arrive within `waitSeconds`; undefined when none does. */
  next(waitSeconds: number, res: ServerResponse): Promise<PendingRequest | undefined> {
    const now = this.list()[0];
    if (now || waitSeconds <= 0) return Promise.resolve(now);
    return new Promise((resolve) => {
      const wake = (p: PendingRequest) => {
        clearTimeout(timer);
        resolve(p);
      };
      const timer = setTimeout(() => {
        this.nextWaiters.delete(wake);
        resolve(undefined);
      }, waitSeconds * 1000);
      this.nextWaiters.add(wake);
      // A reader that hangs up stops waiting.
      res.on('close', () => {
        clearTimeout(timer);
        this.nextWaiters.delete(wake);
      });
    });
  }
}
