// The update queue behind getUpdates. Updates stay queued until a later call
// confirms them with a higher offset, exactly as Telegram keeps them, so a bot
// that loses a response (or is stopped) sees them again.
import { ApiError } from './errors.ts';
import type { Update } from './types.ts';

/** Telegram leaves these out unless allowed_updates names them. */
const OPT_IN = new Set(['chat_member', 'message_reaction', 'message_reaction_count']);

interface Poll {
  limit: number;
  resolve: (updates: Update[]) => void;
  reject: (err: ApiError) => void;
  timer: NodeJS.Timeout | undefined;
  conflict: NodeJS.Timeout | undefined;
}

/**
 * bot.stop() aborts its held poll and at once sends a new getUpdates; the new
 * request can arrive before the old socket's close is seen, so a held poll is only
 * declared in conflict if it is still open a moment later.
 */
const CONFLICT_GRACE_MS = 25;

export interface GetUpdatesParams {
  offset?: unknown;
  limit?: unknown;
  timeout?: unknown;
  allowed_updates?: unknown;
}

const kindOf = (u: Update): string => Object.keys(u).find((k) => k !== 'update_id') ?? '';

export class UpdateQueue {
  private queue: Update[] = [];
  private nextId = 1;
  private readonly polls = new Set<Poll>();
  private allowed: string[] = [];

  get pendingPolls(): number {
    return this.polls.size;
  }

  /** Updates not yet confirmed by an offset. */
  get queued(): readonly Update[] {
    return this.queue;
  }

  push(body: Omit<Update, 'update_id'>): Update {
    const update = { update_id: this.nextId++, ...body } as Update;
    this.queue.push(update);
    for (const poll of this.polls) {
      const batch = this.take(poll.limit);
      if (batch.length > 0) this.settle(poll, batch);
    }
    return update;
  }

  /** Drops every queued update, as deleteWebhook with drop_pending_updates does. */
  dropPending(): void {
    this.queue = [];
  }

  /**
   * Answers getUpdates: at once when updates are queued or timeout is 0, else when
   * one arrives or the timeout ends. `closed` aborts when the client goes away.
   */
  getUpdates(params: GetUpdatesParams, closed: AbortSignal): Promise<Update[]> {
    // A newer getUpdates ends the held one, which is how Telegram exposes two running instances.
    for (const poll of this.polls) {
      poll.conflict ??= setTimeout(() => {
        if (!this.polls.has(poll)) return;
        this.drop(poll);
        poll.reject(
          new ApiError(
            409,
            'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
          ),
        );
      }, CONFLICT_GRACE_MS);
    }
    this.confirm(Number(params.offset ?? 0));
    if (Array.isArray(params.allowed_updates)) this.allowed = params.allowed_updates.map(String);
    const limit = Math.min(100, Math.max(1, Number(params.limit ?? 100) || 100));
    const timeout = Math.max(0, Number(params.timeout ?? 0) || 0);
    const batch = this.take(limit);
    if (batch.length > 0 || timeout === 0 || closed.aborted) return Promise.resolve(batch);
    return new Promise((resolve, reject) => {
      const poll: Poll = { limit, resolve, reject, timer: undefined, conflict: undefined };
      poll.timer = setTimeout(() => this.settle(poll, []), timeout * 1000);
      this.polls.add(poll);
      closed.addEventListener('abort', () => this.settle(poll, []), { once: true });
    });
  }

  /** Ends every held poll with an empty answer (used when the fake closes). */
  releaseAll(): void {
    for (const poll of this.polls) this.settle(poll, []);
  }

  private confirm(offset: number): void {
    if (!Number.isInteger(offset) || offset === 0) return;
    if (offset > 0) this.queue = this.queue.filter((u) => u.update_id >= offset);
    else this.queue = this.queue.slice(offset);
  }

  private take(limit: number): Update[] {
    // Updates the bot did not ask for are dropped, as Telegram never queues them.
    this.queue = this.queue.filter((u) => {
      const kind = kindOf(u);
      return this.allowed.length > 0 ? this.allowed.includes(kind) : !OPT_IN.has(kind);
    });
    return this.queue.slice(0, limit);
  }

  private settle(poll: Poll, updates: Update[]): void {
    if (!this.polls.has(poll)) return;
    this.drop(poll);
    poll.resolve(updates);
  }

  private drop(poll: Poll): void {
    clearTimeout(poll.timer);
    clearTimeout(poll.conflict);
    this.polls.delete(poll);
  }
}
