/**
 * What the owners decided (the `owner` key space): bans and notices.
 *   ban:<platform>:<id>   a banned chat, server or user, with why and by whom
 *   notice:<id>           a notice drafted (dry run) and, once confirmed, whom it went to
 *   _version              changes on every ban or unban, so every instance rereads the list
 * A ban is checked on every update: the list is held in memory and reread only
 * when the version changed (read at most every `recheckMs`; at once on this instance's writes).
 */
import { randomUUID } from 'node:crypto';
import type { Kv } from './strict.ts';
import type { DestinationPlatform } from './subscriptions.ts';

export interface Ban {
  /** `platform:id`: a Telegram chat or user, a Discord server, channel or user. */
  readonly target: string;
  readonly reason: string;
  readonly at: number;
  /** The owner who banned, as platform:userId. */
  readonly by: string;
}

export interface Notice {
  readonly id: string;
  readonly text: string;
  /** Only this platform's destinations; absent: every destination. */
  readonly platform?: DestinationPlatform;
  readonly by: string;
  readonly at: number;
  /** Set when confirmed: the subscription ids it was queued for (its outbox entries follow from them). */
  readonly sentAt?: number;
  readonly to?: readonly string[];
  /** Its final count, once nothing was left waiting. */
  readonly final?: {
    readonly total: number;
    readonly sent: number;
    readonly failed: number;
    readonly waiting: number;
    readonly unsure?: number;
  };
}

export interface OwnerStore {
  ban(b: Ban): Promise<void>;
  /** False when the target was not banned. */
  unban(target: string): Promise<boolean>;
  bans(): Promise<Ban[]>;
  /** The first of `targets` that is banned, or undefined. Cheap: called on every update. */
  banned(targets: readonly string[]): Promise<Ban | undefined>;
  notice(id: string): Promise<Notice | undefined>;
  putNotice(n: Notice): Promise<void>;
}

const VERSION = '_version';
/** A drafted notice is kept a week: long enough to read its progress after it went out. */
const NOTICE_TTL_MS = 7 * 86_400_000;

export function createOwnerStore(kv: Kv, o: { now?: () => number; recheckMs?: number } = {}): OwnerStore {
  const now = o.now ?? Date.now;
  const recheckMs = o.recheckMs ?? 2_000;
  let cache: { version: string; byTarget: Map<string, Ban>; checkedAt: number } | undefined;

  async function load(): Promise<Map<string, Ban>> {
    if (cache && now() - cache.checkedAt < recheckMs) return cache.byTarget;
    const version = (await kv.get<string>(VERSION)) ?? '';
    if (cache && cache.version === version) {
      cache.checkedAt = now();
      return cache.byTarget;
    }
    const byTarget = new Map<string, Ban>();
    for await (const [key, value] of kv.entries<Ban>())
      if (key.startsWith('ban:') && value) byTarget.set(value.target, value);
    cache = { version, byTarget, checkedAt: now() };
    return byTarget;
  }
  const bump = async () => {
    await kv.set(VERSION, randomUUID());
    cache = undefined;
  };

  return {
    async ban(b) {
      await kv.set(`ban:${b.target}`, b);
      await bump();
    },
    async unban(target) {
      const had = (await kv.get(`ban:${target}`)) !== undefined;
      if (had) {
        await kv.delete(`ban:${target}`);
        await bump();
      }
      return had;
    },
    async bans() {
      return [...(await load()).values()].sort((a, b) => a.at - b.at);
    },
    async banned(targets) {
      const list = await load();
      if (list.size === 0) return undefined;
      for (const t of targets) {
        const b = list.get(t);
        if (b) return b;
      }
      return undefined;
    },
    notice: (id) => kv.get<Notice>(`notice:${id}`),
    putNotice: (n) => kv.set(`notice:${n.id}`, n, NOTICE_TTL_MS),
  };
}
