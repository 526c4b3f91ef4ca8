/**
 * Discord sends an interaction once, to one instance. If that instance
 * acknowledged it ("thinking…") and then died, nobody would ever finish it.
 * But the answer no longer needs that instance: for 15 min the interaction's
 * token lets any holder edit the reply through the webhook routes.
 *
 * So before it is acknowledged, an interaction is claimed in the store
 * (claims.ts) with its raw payload, token included, and how it is to be
 * acknowledged, under a short lease this process renews while it works: an
 * instance killed at any point after its acknowledgement leaves a claim behind
 * (claimed after the acknowledgement, a kill between the two left nothing any
 * instance could see). When the handler ends the claim is done. Any instance
 * looks for claims whose holder stopped renewing, makes sure the interaction
 * is acknowledged (the holder may have died just before: "already
 * acknowledged" is the usual answer; "unknown interaction", its 3 s gone
 * unacknowledged, Discord has already told the user it did not respond),
 * rebuilds it from the payload, marks it acknowledged the way it was, and
 * hands it to the same handlers, which then only give the answer. Gateway and
 * HTTP interactions alike: both enter discord.js through InteractionCreate.
 */
import { DiscordAPIError, Routes, SnowflakeUtil, type Client, type Interaction } from 'discord.js';
import type { Logger } from 'pino';
import type { Claims } from '../../store/claims.ts';
import type { Acknowledgement } from './interactions.ts';

/** Discord's interaction token lifetime, less a margin for the answer itself. */
const TOKEN_LIFETIME_MS = 15 * 60_000 - 30_000;
const BATCH = 10;

export interface Takeover {
  /** Claims an interaction about to be acknowledged with what another instance needs to finish it. Never rejects. */
  acknowledging(i: Interaction, how: Acknowledgement): Promise<void>;
  /** Before the handlers: an interaction taken over is marked as acknowledged already. */
  prepare(i: Interaction): void;
  /** The handler ended, whatever the outcome: its claim is done. Never rejects. */
  finished(i: Interaction): Promise<void>;
  start(): void;
  /** Stops looking for others' interactions; what this process holds stays claimed until it finishes. */
  stop(): void;
}

interface Stored {
  readonly raw: { id: string; token?: string };
  readonly how: Acknowledgement;
}

/** Discord's answers to an acknowledgement that cannot be given. */
const ALREADY_ACKNOWLEDGED = 40060;
const UNKNOWN_INTERACTION = 10062;

/** The interaction callback each acknowledgement is. */
const CALLBACKS: Readonly<Record<Acknowledgement, { type: number; data?: { flags: number } }>> = {
  reply: { type: 5 },
  ephemeral: { type: 5, data: { flags: 64 } },
  update: { type: 6 },
};

type Handle = { handle(data: unknown): void };

export function createTakeover(
  client: Client,
  claims: Claims,
  log: Logger,
  o: { everyMs?: number; now?: () => number } = {},
): Takeover {
  const now = o.now ?? Date.now;
  // Every interaction enters here, from the gateway or from http-interactions.ts: keep its raw payload until handled.
  // discord.js internals, no public type: http-interactions.ts (gatewayInteractionHandler) checks them at start-up.
  const action = (client as unknown as { actions: { InteractionCreate: Handle } }).actions.InteractionCreate;
  const handle = action.handle.bind(action);
  const raws = new Map<string, { id: string }>();
  action.handle = (data: unknown) => {
    const raw = data as { id?: unknown };
    if (typeof raw.id === 'string') raws.set(raw.id, raw as { id: string });
    handle(data);
  };
  const resuming = new Map<string, Acknowledgement>();
  const claimed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let looking = false;
  let lookFailed = false;

  async function look(): Promise<void> {
    if (looking) return;
    looking = true;
    try {
      const found = await claims.orphans(BATCH);
      lookFailed = false;
      for (const { key, payload } of found) {
        const { raw, how } = payload as Stored;
        claimed.add(key);
        if (now() - SnowflakeUtil.timestampFrom(raw.id) > TOKEN_LIFETIME_MS) {
          log.warn({ interaction: key }, 'discord: an interaction left unfinished is past its 15 min; given up');
          await finish(key);
          continue;
        }
        if (!(await ensureAcknowledged(key, raw, how))) {
          await finish(key);
          continue;
        }
        log.warn({ interaction: key }, 'discord: taking over an interaction its instance left unfinished');
        resuming.set(key, how);
        action.handle(raw);
      }
    } catch (err) {
      if (!lookFailed) log.warn({ err }, 'discord: could not look for unfinished interactions; retrying');
      lookFailed = true;
    } finally {
      looking = false;
    }
  }

  /** False: it was never acknowledged and can no longer be (Discord told the user it did not respond). */
  async function ensureAcknowledged(key: string, raw: Stored['raw'], how: Acknowledgement): Promise<boolean> {
    if (typeof raw.token !== 'string') return true;
    try {
      await client.rest.post(Routes.interactionCallback(raw.id, raw.token), { body: CALLBACKS[how], auth: false });
      log.warn(
        { interaction: key },
        'discord: an interaction claimed but not acknowledged by its instance; acknowledged',
      );
    } catch (err) {
      if (err instanceof DiscordAPIError && err.code === ALREADY_ACKNOWLEDGED) return true;
      if (err instanceof DiscordAPIError && err.code === UNKNOWN_INTERACTION) {
        log.warn({ interaction: key }, 'discord: an interaction its instance never acknowledged is gone; given up');
        return false;
      }
      // The answer may still get through: the edit says.
      log.warn({ err, interaction: key }, 'discord: could not check the acknowledgement of an interaction taken over');
    }
    return true;
  }

  async function finish(key: string): Promise<void> {
    if (!claimed.delete(key)) return;
    await claims.finish(key).catch((err: unknown) =>
      // Left running, the claim lapses and another instance answers again: a duplicate, not a loss.
      log.warn({ err, interaction: key }, 'discord: could not mark the interaction done'),
    );
  }

  return {
    async acknowledging(i, how) {
      const raw = raws.get(i.id);
      if (!raw) return;
      try {
        const [r] = await claims.take([{ key: i.id, payload: { raw, how } satisfies Stored }]);
        if (r === 'mine') claimed.add(i.id);
      } catch (err) {
        // Answering still works; only a crash before the answer would leave it thinking.
        log.warn({ err, interaction: i.id }, 'discord: could not claim the interaction; answering without a claim');
      }
    },
    prepare(i) {
      const how = resuming.get(i.id);
      if (how === undefined || !i.isRepliable()) return;
      resuming.delete(i.id);
      // As discord.js marks them after deferReply / deferUpdate, so the handlers edit instead of replying.
      i.deferred = true;
      if (how === 'ephemeral') i.ephemeral = true;
    },
    async finished(i) {
      raws.delete(i.id);
      await finish(i.id);
    },
    start() {
      timer = setInterval(() => void look(), o.everyMs ?? 5_000);
      timer.unref();
      void look();
    },
    stop() {
      clearInterval(timer);
    },
  };
}
