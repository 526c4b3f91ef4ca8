/**
 * Long polling under a lease. Telegram lets one getUpdates run per bot: a
 * second one ends the first with 409 Conflict. So of several instances sharing
 * a store only the holder of the `telegram-poller` lease polls; the others
 * check the lease every fifth of its lifetime and take over when the holder
 * stops renewing (it died or was stopped). Each batch is claimed in the store
 * before the next getUpdates confirms it (see index.ts): an update the former
 * holder had not confirmed comes again to the new one and its claim says
 * whether it is done; one it had confirmed but not finished is taken over from
 * its claim by any instance once the claim's lease lapses.
 *
 * A 409 from outside the fleet (another process with this token, or a webhook
 * set) ends the runner; it is logged once with what to do, and polling backs
 * off (doubling up to a minute) instead of fighting the other poller.
 */
import { run, type RunnerHandle } from '@grammyjs/runner';
import type { Bot } from 'grammy';
import type { Logger } from 'pino';
import type { Lease } from '../../store/lease.ts';

export interface PollerOptions {
  readonly bot: Bot;
  readonly lease: Lease;
  readonly log: Logger;
  readonly allowedUpdates: readonly string[];
  /** How often a standby checks the lease; default 3 s (a fifth of the 15 s lease). */
  readonly checkMs?: number;
  /** First wait after a 409; doubles up to `maxBackoffMs`. */
  readonly backoffMs?: number;
  readonly maxBackoffMs?: number;
}

export interface Poller {
  start(): Promise<void>;
  /** Stops polling (in-flight handlers carry on), runs `beforeRelease`, and gives the lease up. */
  stop(beforeRelease?: () => Promise<void>): Promise<void>;
  /** This instance holds the lease and its runner is polling. */
  polling(): boolean;
  /** 'poller', 'standby' or 'backoff' (holds the lease, waiting out a 409). */
  role(): 'poller' | 'standby' | 'backoff';
  /** Called by the transport after each getUpdates answer; a success ends a conflict. */
  answered(ok: boolean): void;
}

const CONFLICT_HINT =
  'Telegram refused getUpdates with 409 Conflict: another process polls with this bot token, or a webhook is set. ' +
  'Stop the other poller (or run it with the same STORE_URL=redis://... so that only one instance polls), ' +
  'or, if the webhook is wanted, set TELEGRAM_WEBHOOK_URL on every instance. Polling backs off meanwhile.';

export function isConflict(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { error_code?: unknown }).error_code === 409;
}

export function createPoller(o: PollerOptions): Poller {
  const checkMs = o.checkMs ?? 3000;
  const firstBackoff = o.backoffMs ?? 1000;
  const maxBackoff = o.maxBackoffMs ?? 60_000;
  let runner: RunnerHandle | undefined;
  let stopped = true;
  let timer: NodeJS.Timeout | undefined;
  let backoff = firstBackoff;
  let resumeAt = 0;
  let conflictLogged = false;
  let held = false;
  let storeDown = false;

  const schedule = (ms: number) => {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(() => void check(), ms);
  };

  function begin(): void {
    const r = run(o.bot, {
      runner: { fetch: { allowed_updates: [...o.allowedUpdates] as never, timeout: 30 }, silent: true },
    });
    runner = r;
    o.log.info('telegram: polling (this instance holds the poller lease)');
    r.task()?.catch((err: unknown) => {
      if (runner === r) runner = undefined;
      if (stopped) return;
      if (isConflict(err)) {
        if (!conflictLogged) o.log.error({ err }, CONFLICT_HINT);
        else o.log.debug({ backoffMs: backoff }, 'telegram: 409 again; still backing off');
        conflictLogged = true;
      } else {
        o.log.error({ err, backoffMs: backoff }, 'telegram: polling stopped; retrying');
      }
      resumeAt = Date.now() + backoff;
      backoff = Math.min(backoff * 2, maxBackoff);
      schedule(resumeAt - Date.now());
    });
  }

  async function halt(): Promise<void> {
    const r = runner;
    runner = undefined;
    await r?.stop();
  }

  async function check(): Promise<void> {
    if (stopped) return;
    try {
      held = await o.lease.acquire();
      storeDown = false;
    } catch (err) {
      // The store is unreachable: nobody can take the lease meanwhile, so whoever polls goes on
      // polling and the standbys stay put; the next check settles it once the store answers.
      if (!storeDown) o.log.warn({ err }, 'telegram: poller lease unavailable; keeping the current role');
      storeDown = true;
      schedule(checkMs);
      return;
    }
    if (stopped) return;
    if (!held && runner) {
      o.log.info('telegram: poller lease lost; polling stopped here');
      await halt();
    } else if (held && !runner && Date.now() >= resumeAt) {
      begin();
    }
    schedule(checkMs);
  }

  return {
    async start() {
      stopped = false;
      await check();
    },
    async stop(beforeRelease) {
      stopped = true;
      clearTimeout(timer);
      await halt();
      if (held) await beforeRelease?.();
      held = false;
      await o.lease.release().catch(() => {});
    },
    polling: () => runner?.isRunning() ?? false,
    role: () => (!held ? 'standby' : runner ? 'poller' : 'backoff'),
    answered(ok) {
      if (!ok) return;
      backoff = firstBackoff;
      conflictLogged = false;
    },
  };
}
