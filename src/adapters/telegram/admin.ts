/**
 * "May this user change this group's alerts?" Only the group's creator and
 * administrators may. Asking costs a getChatMember call, so answers are kept
 * briefly: a yes for a minute, a no only for seconds, so that a user who was
 * just promoted is not refused for long.
 */
import type { Api } from 'grammy';
import type { Logger } from 'pino';
import { TtlCache } from '../../api/cache.ts';

export interface AdminCheckOptions {
  readonly yesTtlMs?: number;
  readonly noTtlMs?: number;
  /** Most answers kept; the oldest go first. */
  readonly maxEntries?: number;
  readonly now?: () => number;
}

export interface AdminCheck {
  isAdmin(chatId: number, userId: number): Promise<boolean>;
}

export function createAdminCheck(api: Api, log: Logger, o: AdminCheckOptions = {}): AdminCheck {
  const yesTtl = o.yesTtlMs ?? 60_000;
  const noTtl = o.noTtlMs ?? 5_000;
  const max = o.maxEntries ?? 10_000;
  const now = o.now ?? Date.now;
  const cache = new TtlCache<boolean>(max);
  const asking = new Map<string, Promise<boolean>>();

  async function ask(chatId: number, userId: number, key: string): Promise<boolean> {
    try {
      const member = await api.getChatMember(chatId, userId);
      const admin = member.status === 'creator' || member.status === 'administrator';
      cache.set(key, admin, admin ? yesTtl : noTtl, now());
      return admin;
    } catch (err) {
      // Unknown means no: a settings change can be retried, a wrong yes cannot be taken back.
      log.warn({ err }, 'telegram: could not check admin status');
      return false;
    }
  }

  return {
    isAdmin(chatId, userId) {
      const key = `${chatId}:${userId}`;
      const hit = cache.get(key, now());
      if (hit !== undefined) return Promise.resolve(hit);
      let p = asking.get(key);
      if (!p) {
        p = ask(chatId, userId, key).finally(() => asking.delete(key));
        asking.set(key, p);
      }
      return p;
    },
  };
}
