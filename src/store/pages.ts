/**
 * Button state. A button carries only a short random key: Telegram's callback
 * data is 64 bytes and Discord's custom id 100 characters, far too small for a
 * query. The query lives here under that key until it expires.
 */
import { randomBytes } from 'node:crypto';
import type { Ask } from '../domain/view.ts';
import type { Kv } from './strict.ts';

export interface StoredAction {
  readonly command: string;
  readonly options: Readonly<Record<string, unknown>>;
  /**
   * The destinations (domain/destination.ts: `platform:chatId`, `:threadId` after it in a
   * forum topic) whose messages carry this button. Callback
   * data can be forged, so a key pressed anywhere else is refused.
   */
  readonly chats: readonly string[];
  /** A button that asks for a value first: what it asks (see domain/view.ts). */
  readonly ask?: Ask;
}

/**
 * A value asked for with a Telegram forced reply, kept under the asking
 * message: which button asked, who may answer, and the panel to edit after.
 */
export interface PendingPrompt {
  /** The pressed button's id (`a:?<command>:<key>`). */
  readonly action: string;
  /** The admin who pressed: only their reply (or the group's own, for anonymous admins) counts. */
  readonly userId: string;
  /** The panel message to edit once the value is taken. */
  readonly panel: number;
}

export interface PageStore {
  /** Saves an action and returns its key (12 URL-safe characters). */
  put(action: StoredAction, ttlMs: number): Promise<string>;
  /** The action, or undefined once it has expired. */
  get(key: string): Promise<StoredAction | undefined>;
  /** Keeps a forced reply's question under `where` (`<platform>:<chat>:<message id>`). */
  putPrompt(where: string, p: PendingPrompt, ttlMs: number): Promise<void>;
  getPrompt(where: string): Promise<PendingPrompt | undefined>;
  dropPrompt(where: string): Promise<void>;
}

const ACTION_KEY_PATTERN = /^[A-Za-z0-9_-]{12}$/;

export function createPageStore(kv: Kv): PageStore {
  return {
    async put(action, ttlMs) {
      const key = randomBytes(9).toString('base64url');
      await kv.set(key, action, ttlMs);
      return key;
    },
    async get(key) {
      if (!ACTION_KEY_PATTERN.test(key)) return undefined;
      const value: unknown = await kv.get(key);
      if (!value || typeof value !== 'object') return undefined;
      const { command, options, chats, ask } = value as Record<string, unknown>;
      if (typeof command !== 'string' || !options || typeof options !== 'object') return undefined;
      // Stored before buttons were bound to their chats: treated as expired.
      if (!Array.isArray(chats) || !chats.every((c) => typeof c === 'string')) return undefined;
      const asks = isAsk(ask) ? { ask } : {};
      return { command, options: options as Record<string, unknown>, chats, ...asks };
    },
    // Under a prefix no action key can have (those are 12 URL-safe characters).
    putPrompt: (where, p, ttlMs) => kv.set(`prompt:${where}`, p, ttlMs),
    async getPrompt(where) {
      const p = await kv.get<Partial<PendingPrompt>>(`prompt:${where}`);
      return p && typeof p.action === 'string' && typeof p.userId === 'string' && typeof p.panel === 'number'
        ? { action: p.action, userId: p.userId, panel: p.panel }
        : undefined;
    },
    dropPrompt: (where) => kv.delete(`prompt:${where}`),
  };
}

function isAsk(v: unknown): v is Ask {
  if (!v || typeof v !== 'object') return false;
  const a = v as Record<string, unknown>;
  return ['title', 'label', 'value', 'example', 'hint'].every((k) => typeof a[k] === 'string');
}
