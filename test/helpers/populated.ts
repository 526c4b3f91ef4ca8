/**
 * A store as a busy community leaves it, written by the real commands, watcher
 * and delivery against the sandbox: subscriptions with filters, a mute, quiet
 * hours holding alerts, a digest setting, a chat language, automatic cards,
 * alerts sent and tracked as calls with follow-ups due, cooldowns, the feed
 * position and button pages. What backup, migrate-store and the schema
 * snapshots are checked against.
 */
import type { TestContext } from 'node:test';
import { callsHarness } from '../alerts/calls-harness.ts';
import type { Caller } from '../../src/core/command.ts';
import type { Store } from '../../src/store/index.ts';
import { publishLedger } from '../../src/store/publishes.ts';

const OPEN = { token_score: '0', kol_score: '0', followers: '0', cooldown: '0' };
const caller = (chatId: string, threadId?: string): Caller => ({
  platform: 'console',
  userId: `u-${chatId}`,
  chatId,
  ...(threadId ? { threadId } : {}),
  chatType: 'group',
  canManage: async () => true,
});
const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);

/** What a populated store holds, read through the domain APIs: equal before and after a move. */
export interface Contents {
  readonly subscriptions: readonly unknown[];
  readonly languages: Record<string, string | undefined>;
  readonly calls: readonly unknown[];
  readonly outbox: readonly string[];
  readonly held: number;
  /** The community page of chat "open" (/web on), as its slug names it. */
  readonly web: unknown;
}

export const CHATS = ['open', 'quiet', 'digest', 'korean'] as const;
/** A forum topic of its own chat (schema version 4): subscribed, with a language of its own. */
export const TOPIC = { chatId: 'forum', threadId: '7' } as const;

/**
 * Fills the store at `storeUrl` through a real app: `t` for its clean-up, or
 * none (a script): closed here.
 */
export async function populate(storeUrl: string, t?: TestContext): Promise<void> {
  const cleanups: (() => unknown)[] = [];
  const ctx = t ?? ({ after: (fn: () => unknown) => void cleanups.push(fn) } as unknown as TestContext);
  const h = await callsHarness(ctx, { storeUrl, subscribe: false });
  try {
    const run = (line: string, chat: string) => h.app.dispatcher.text(line, caller(chat));
    for (const chat of CHATS) await h.app.dispatcher.run('subscribe', OPEN, caller(chat));
    await h.app.dispatcher.run('subscribe', OPEN, caller(TOPIC.chatId, TOPIC.threadId));
    await h.app.dispatcher.text('/language es', caller(TOPIC.chatId, TOPIC.threadId));
    // The settings link asked in the topic makes it a known topic (the topic space).
    await h.app.dispatcher.text('/settings', caller(TOPIC.chatId, TOPIC.threadId), {
      capabilities: { pictures: false, buttons: true, privateLink: (p) => `https://t.me/bot?start=${p}` },
    });
    // Quiet hours around now, in UTC: the alerts below are held for chat "quiet".
    const now = h.now();
    await run(`/alerts quiet ${hhmm(now - 3_600_000)}-${hhmm(now + 3 * 3_600_000)}`, 'quiet');
    await run('/digest daily at:09:00 tz:Europe/Berlin', 'digest');
    await run('/language ko', 'korean');
    await run('/autocard on cooldown:10m', 'open');
    const muted = h.sb.data.tokens[5]!;
    await run(`/mute ${muted.chain_id} ${muted.address}`, 'open');
    await run('/kols', 'open'); // an answer with buttons: a page
    // The settings panel: pages whose buttons ask for a value, and a Telegram question awaiting its reply (version 10).
    await run('/settings', 'open');
    await h.app.store.pages.putPrompt(
      'telegram:-100777:42',
      { action: 'a:?settings:AAAAAAAAAAAA', userId: '1', panel: 41 },
      30 * 60_000,
    );
    // A members' call board with a call on it (schema version 4).
    await run('/callboard on', 'open');
    const called = h.sb.data.tokens.find((x) => x.chain_id === 'solana' && x.marketcap > 0)!;
    await h.app.dispatcher.text(`/mycall ${called.address}`, {
      ...caller('open'),
      member: { id: 'u-alice', name: '@alice', handle: 'alice' },
    });
    // A community page (/web on; the web space): written as the command writes it, no web server needed.
    await h.app.store.web.open('console', 'open', 'open-chat', h.now(), 'Open chat');
    await h.app.store.claim('telegram:1:update:1', 86_400_000); // a platform update handled
    // An owner's ban and a notice drafted (the owner space).
    await h.app.store.owner.ban({ target: 'telegram:-100999', reason: 'spam', at: h.now(), by: 'telegram:1' });
    await h.app.store.owner.putNotice({
      id: '0badc0de',
      text: 'Maintenance at 02:00 UTC',
      by: 'telegram:1',
      at: h.now(),
    });
    // A Discord announcement channel's publishing hour: 10 publishes, two alerts for the summary (version 16).
    await publishLedger(h.app.store.watch).put('1300000000000000001', {
      times: Array.from({ length: 10 }, (_, i) => h.now() - (10 - i) * 60_000),
      held: [
        { messageId: '1300000000000000011', title: '$AAA Alpha' },
        { messageId: '1300000000000000012', title: '$BBB Beta' },
      ],
      locale: 'de',
    });
    h.shill(0, 0);
    h.shill(1, 1);
    await h.cycle();
    h.advance(16 * 60_000); // the first follow-up is due
    await h.cycle();
  } finally {
    await h.close();
    for (const fn of cleanups.reverse()) await fn();
  }
}

/** The populated data as a user would notice it: what must survive a backup, a move or a migration. */
export async function contents(store: Store): Promise<Contents> {
  const subscriptions = (await store.subscriptions.all()).map((s) => ({ ...s })).sort((a, b) => (a.id < b.id ? -1 : 1));
  const languages: Record<string, string | undefined> = {};
  for (const chat of CHATS) languages[chat] = await store.languages.get('console', chat);
  languages[`${TOPIC.chatId}:${TOPIC.threadId}`] = await store.languages.get('console', TOPIC.chatId, TOPIC.threadId);
  const calls = [];
  for await (const [key, value] of store.space('calls').entries()) if (key.startsWith('c:')) calls.push(value);
  calls.sort((a, b) => ((a as { id: string }).id < (b as { id: string }).id ? -1 : 1));
  const outbox: string[] = [];
  let held = 0;
  for await (const [key, value] of store.space('outbox').entries()) {
    if (!key.startsWith('e:')) continue;
    const e = value as { id: string; state: string; quietUntil?: unknown };
    outbox.push(`${e.id}:${e.state}`);
    if (e.quietUntil) held++;
  }
  return { subscriptions, languages, calls, outbox: outbox.sort(), held, web: await store.web.bySlug('open-chat') };
}
