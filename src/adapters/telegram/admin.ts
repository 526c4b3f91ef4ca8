/**
 * "May this user change this group's alerts?" Only the group's creator and
 * administrators may. Telegram is asked at every check: a yes kept even for a
 * minute let an admin demoted meanwhile apply a preset or change the digest
 * (issue 39), and a getChatMember call per press or command is cheap beside the
 * message it answers with. Only a no is kept, for seconds: a member sending
 * admin commands in a loop costs one call per few seconds, and a user just
 * promoted is not refused for long.
 */
import type { Api } from 'grammy';
import type { Logger } from 'pino';
import { TtlCache } from '../../api/cache.ts';

export interface AdminCheckOptions {
  readonly noTtlMs?: number;
  /** Most answers kept; the oldest go first. */
  readonly maxEntries?: number;
  readonly now?: () => number;
}

export interface AdminCheck {
  isAdmin(chatId: number, userId: number): Promise<boolean>;
}

export function createAdminCheck(api: Api, log: Logger, o: AdminCheckOptions = {}): AdminCheck {
  const noTtl = o.noTtlMs ?? 5_000;
  const max = o.maxEntries ?? 10_000;
  const now = o.now ?? Date.now;
  const refused = new TtlCache<true>(max);

  return {
    async isAdmin(chatId, userId) {
      const key = `${chatId}:${userId}`;
      if (refused.get(key, now())) return false;
      try {
        const member = await api.getChatMember(chatId, userId);
        const admin = member.status === 'creator' || member.status === 'administrator';
        if (!admin) refused.set(key, true, noTtl, now());
        return admin;
      } catch (err) {
        // Unknown means no: a settings change can be retried, a wrong yes cannot be taken back.
        log.warn({ err }, 'telegram: could not check admin status');
        return false;
      }
    },
  };
}
