/** Tweets as chat lines: who, when, what (cut), and a link to the post on X. */
import type { TokenTweet, TweetListItem } from '../../api/index.ts';
import type { Field, Span } from '../../domain/view.ts';
import { excerpt, ticker, xPostUrl } from './common.ts';
import { fmt, type T } from './lang.ts';

/** The fields both tweet views share, plus what each adds. */
export interface TweetLine {
  readonly username: string;
  readonly followers?: number;
  readonly tweetedAt: string;
  readonly content: string;
  readonly twitterId: string;
  readonly likes: number;
  readonly views: number;
  /** `$PEPE` or `$PEPE +2`, list view only. */
  readonly tokens?: string;
  readonly type?: string;
}

export function fromTokenTweet(t: TokenTweet): TweetLine {
  return {
    username: t.x_user.username,
    followers: t.x_user.follower_count,
    tweetedAt: t.tweeted_at,
    content: t.content,
    twitterId: t.twitter_id,
    likes: t.favorite_count,
    views: t.view_count,
  };
}

export function fromListTweet(t: TweetListItem): TweetLine {
  const author = t.x_user[0];
  const extra = t.tokens.length > 1 ? ` +${t.tokens.length - 1}` : '';
  return {
    username: author?.username ?? '',
    ...(author?.follower_count !== undefined ? { followers: author.follower_count } : {}),
    tweetedAt: t.tweeted_at,
    content: t.content,
    twitterId: t.twitter_id,
    likes: t.favorite_count,
    views: t.view_count,
    tokens: `${ticker(t.token.symbol, t.token.name)} (${t.token.chain_id})${extra}`,
    type: t.tweet_type,
  };
}

const author = (t: TweetLine, tr: T) => (t.username ? `@${t.username}` : tr('tweets.unknownAuthor'));

/** One field per tweet, for feeds: the heading says who and when, the value what. */
export function tweetField(t: TweetLine, now: number, max = 220, tr: T): Field {
  const { compact, timeAgo } = fmt(tr);
  const head = [author(t, tr), timeAgo(t.tweetedAt, now), t.tokens, t.type && t.type !== 'tweet' ? t.type : undefined];
  const value: Span[] = [
    excerpt(t.content, max) || tr('tweets.noText'),
    '\n',
    `♥ ${compact(t.likes)} · 👁 ${compact(t.views)}`,
    t.followers !== undefined
      ? ` · ${tr('tweets.followers', { count: t.followers, n: compact(t.followers) })} · `
      : ' · ',
    { link: tr('tweets.openOnX'), url: xPostUrl(t.username, t.twitterId) },
  ];
  return { name: head.filter(Boolean).join(' · '), value };
}

/** A few tweets as compact lines inside one field (the token card). */
export function tweetDigest(tweets: readonly TweetLine[], now: number, max = 100, tr: T): Span[] {
  const { timeAgo } = fmt(tr);
  const out: Span[] = [];
  tweets.forEach((t, i) => {
    if (i > 0) out.push('\n');
    out.push(
      { b: author(t, tr) },
      ` ${timeAgo(t.tweetedAt, now)}: `,
      excerpt(t.content, max) || tr('tweets.noText'),
      ' ',
    );
    out.push({ link: '↗', url: xPostUrl(t.username, t.twitterId) });
  });
  return out;
}
