/**
 * Why an alert was sent (or why a sample would not be): each filter of a
 * subscription against the tweet, in words, true by construction: `>=` only
 * when the value passes, `<` when it does not, "unknown" when no source gave it.
 * Stored with the alert as Messages and said in the destination's language.
 */
import { translator } from '../i18n/index.ts';
import { renderMessage, type Message } from '../i18n/message.ts';
import type { AlertFilters } from '../store/subscriptions.ts';
import type { MarketAtTime } from './market.ts';
import type { TweetFacts } from './matcher.ts';
import { keywordsIn, marketRules } from './rules.ts';

const ENGLISH = translator('en');

/**
 * "token score 82 >= 70, KOL score 64 >= 60, 12,300 followers >= 10,000".
 * `market`: the token's figures from operation 2 (null: not found); left out,
 * the market filters are not said (nothing was looked up).
 */
export function filterChecks(
  f: AlertFilters,
  t: TweetFacts,
  market?: MarketAtTime | null,
): { parts: string[]; checks: Message[]; pass: boolean } {
  let pass = true;
  const checks: Message[] = [];
  const put = (ok: boolean, key: string, values: Record<string, unknown> = {}) => {
    if (!ok) pass = false;
    checks.push({ key: `checks.${key}`, values });
  };
  const threshold = (name: 'tokenScore' | 'kolScore', value: number | null, min: number) => {
    if (value === null) return put(min <= 0, `${name}Unknown`);
    const ok = value >= min;
    put(ok, `${name}${ok ? 'Pass' : 'Fail'}`, { value: { dec: value }, min: { dec: min } });
  };
  if (f.chains.length) {
    const ok = f.chains.includes(t.chain as never);
    put(ok, ok ? 'chain' : 'chainNot', { chain: t.chain, chains: f.chains.join('/') });
  }
  threshold('tokenScore', t.tokenScore, f.minTokenScore);
  threshold('kolScore', t.kolScore, f.minKolScore);
  if (t.followers === null) put(f.minFollowers <= 0, 'followersUnknown');
  else
    put(t.followers >= f.minFollowers, t.followers >= f.minFollowers ? 'followersPass' : 'followersFail', {
      value: { int: t.followers },
      min: { int: f.minFollowers },
    });
  if (f.tweetTypes.length) {
    const ok = f.tweetTypes.includes(t.tweetType);
    put(ok, ok ? 'type' : 'typeNot', { type: t.tweetType, types: f.tweetTypes.join('/') });
  }
  if (f.allowKols.length)
    put(f.allowKols.includes(t.username), f.allowKols.includes(t.username) ? 'onList' : 'notOnList', {
      name: t.username,
    });
  if (f.denyKols.includes(t.username)) put(false, 'excluded', { name: t.username });
  if (f.labels.length) {
    if (t.labels === null) put(false, 'labelsUnknown');
    else {
      const hit = f.labels.filter((l) => t.labels!.includes(l));
      put(hit.length > 0, hit.length ? 'label' : 'noLabel', { labels: (hit.length ? hit : f.labels).join('/') });
    }
  }
  if (f.keywords?.length) {
    const hit = keywordsIn(t.words, f.keywords);
    put(hit.length > 0, hit.length ? 'keyword' : 'noKeyword', { words: (hit.length ? hit : f.keywords).join('/') });
  }
  const blocked = keywordsIn(t.words, f.blockKeywords);
  if (blocked.length) put(false, 'blocked', { words: blocked.join('/') });
  if (market !== undefined)
    for (const r of marketRules(f, market)) {
      const value = r.figure === 'age' ? { days: r.value ?? 0 } : { usd: r.value ?? 0 };
      const limit = r.figure === 'age' ? { days: r.limit } : { usd: r.limit };
      if (r.verdict === 'unknown') put(false, `${r.figure}Unknown`);
      else
        put(
          r.verdict === 'pass',
          `${r.figure}${r.bound === 'min' ? 'Min' : 'Max'}${r.verdict === 'pass' ? 'Pass' : 'Fail'}`,
          { value, limit },
        );
    }
  return { parts: checks.map((m) => renderMessage(ENGLISH, m)), checks, pass };
}
