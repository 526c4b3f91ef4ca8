/**
 * What the alert pipeline reports, counted in the operator's metrics: each
 * send's outcome, each watcher tick, each follow-up round. Kept beside the
 * composition root (app.ts) that hands these callbacks to delivery and the
 * watcher, so neither of them knows about Prometheus.
 */
import type { DeliveryOptions } from '../alerts/delivery.ts';
import type { WatcherOptions } from '../alerts/watcher.ts';
import type { Metrics } from '../ops/metrics.ts';
import type { OutboxEntry } from '../store/outbox.ts';

export interface AlertMetrics {
  readonly onResult: NonNullable<DeliveryOptions['onResult']>;
  readonly onDrained: NonNullable<DeliveryOptions['onDrained']>;
  readonly onTick: NonNullable<WatcherOptions['onTick']>;
  readonly onFeedRequest: NonNullable<WatcherOptions['onFeedRequest']>;
  readonly onTickError: NonNullable<WatcherOptions['onTickError']>;
  readonly onFollowups: NonNullable<WatcherOptions['onFollowups']>;
}

export function alertMetrics(metrics: Metrics, now: () => number = Date.now): AlertMetrics {
  return {
    onResult: (e, r) => {
      if (r.kind === 'sent') {
        metrics.alertsSent.inc({ platform: e.platform });
        observeAlertDelay(metrics, e, now());
      }
      // Paced: a destination at its own limit, scheduled; nothing failed.
      else if (r.kind === 'paced') metrics.rateLimitWaits.inc({ platform: e.platform });
      else metrics.alertsFailed.inc({ platform: e.platform, kind: r.kind });
      if (r.kind === 'retry' && r.rateLimited) metrics.rateLimitWaits.inc({ platform: e.platform });
    },
    onDrained: (n) => metrics.outboxDepth.set(n),
    onTick: (r) => {
      metrics.watcherTicks.inc({ result: r.leader ? 'leader' : 'follower' });
      metrics.alertsMatched.inc({}, r.matched);
      metrics.alertsQueued.inc({}, r.queued);
      metrics.authorLookups.inc({}, r.lookup.requests);
      metrics.authorCacheHits.inc({}, r.lookup.cacheHits);
      metrics.authorUnknown.inc({}, r.lookup.unknown);
      metrics.alertsHeld.inc({}, r.held);
      if (r.lagMs !== null) metrics.watcherLag.set(r.lagMs / 1000);
      for (const ms of r.firstReadMs) metrics.tweetToRead.observe(ms / 1000);
    },
    // Where the request is made, not from a tick's result: a tick that fails never reports one.
    onFeedRequest: () => metrics.feedRequests.inc(),
    onTickError: () => metrics.watcherTicks.inc({ result: 'error' }),
    onFollowups: (f) => {
      metrics.followupRequests.inc({}, f.requests);
      metrics.followupsQueued.inc({}, f.queued);
      metrics.followupsDeferred.inc({}, f.deferred);
    },
  };
}

/**
 * The delay histograms for a new alert the platform accepted at `sentAt`: its
 * first tweet (the one that made it an alert) to sent, and first read to sent.
 * Edits, merged lines, notices and digests are not alerts' first sends.
 */
export function observeAlertDelay(m: Metrics, e: OutboxEntry, sentAt: number): void {
  if (e.content.kind !== 'alert') return;
  const platform = e.platform;
  const tweeted = Date.parse(e.content.kols[0]?.tweetedAt ?? '');
  if (Number.isFinite(tweeted)) m.tweetToSent.observe(Math.max(0, sentAt - tweeted) / 1000, { platform });
  if (e.readAt !== undefined) m.readToSent.observe(Math.max(0, sentAt - e.readAt) / 1000, { platform });
}
