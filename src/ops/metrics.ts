/**
 * A minimal Prometheus registry: counters, gauges and histograms with labels,
 * rendered in the text exposition format. Small enough to own, so the bot does
 * not carry prom-client for a dozen series.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

type IntervalHistogram = ReturnType<typeof monitorEventLoopDelay>;
/** Seconds, from a quarter second (the goal is a couple) to five minutes (a large free-rate fan-out). */
const DELAY_BUCKETS = [0.25, 0.5, 1, 2, 3, 5, 10, 20, 30, 60, 120, 300];

type Labels = Readonly<Record<string, string>>;

const key = (labels: Labels) =>
  Object.keys(labels)
    .sort()
    .map((k) => `${k}="${String(labels[k]).replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"')}"`)
    .join(',');

interface Series {
  render(): string[];
}

export class Counter implements Series {
  readonly #values = new Map<string, number>();
  readonly name: string;
  readonly help: string;
  constructor(name: string, help: string) {
    this.name = name;
    this.help = help;
  }
  inc(labels: Labels = {}, by = 1): void {
    const k = key(labels);
    this.#values.set(k, (this.#values.get(k) ?? 0) + by);
  }
  get(labels: Labels = {}): number {
    return this.#values.get(key(labels)) ?? 0;
  }
  render(): string[] {
    const out = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const [k, v] of this.#values) out.push(`${this.name}${k ? `{${k}}` : ''} ${v}`);
    return out;
  }
}

export class Gauge implements Series {
  readonly #values = new Map<string, number>();
  readonly #collect: (() => void) | undefined;
  readonly name: string;
  readonly help: string;
  constructor(name: string, help: string, collect?: (g: Gauge) => void) {
    this.name = name;
    this.help = help;
    this.#collect = collect ? () => collect(this) : undefined;
  }
  set(value: number, labels: Labels = {}): void {
    this.#values.set(key(labels), value);
  }
  get(labels: Labels = {}): number | undefined {
    return this.#values.get(key(labels));
  }
  render(): string[] {
    this.#collect?.();
    const out = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} gauge`];
    for (const [k, v] of this.#values) out.push(`${this.name}${k ? `{${k}}` : ''} ${v}`);
    return out;
  }
}

export class Histogram implements Series {
  readonly #series = new Map<string, { counts: number[]; sum: number; count: number }>();
  readonly name: string;
  readonly help: string;
  readonly buckets: readonly number[];
  constructor(name: string, help: string, buckets: readonly number[]) {
    this.name = name;
    this.help = help;
    this.buckets = buckets;
  }
  observe(value: number, labels: Labels = {}): void {
    const k = key(labels);
    let s = this.#series.get(k);
    if (!s) {
      s = { counts: this.buckets.map(() => 0), sum: 0, count: 0 };
      this.#series.set(k, s);
    }
    for (let i = 0; i < this.buckets.length; i++) if (value <= this.buckets[i]!) s.counts[i]!++;
    s.sum += value;
    s.count++;
  }
  count(labels: Labels = {}): number {
    return this.#series.get(key(labels))?.count ?? 0;
  }
  render(): string[] {
    const out = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const [k, s] of this.#series) {
      const sep = k ? `${k},` : '';
      this.buckets.forEach((b, i) => {
        out.push(`${this.name}_bucket{${sep}le="${b}"} ${s.counts[i]}`);
      });
      out.push(`${this.name}_bucket{${sep}le="+Inf"} ${s.count}`);
      out.push(`${this.name}_sum${k ? `{${k}}` : ''} ${s.sum}`);
      out.push(`${this.name}_count${k ? `{${k}}` : ''} ${s.count}`);
    }
    return out;
  }
}

/**
 * Event-loop delay since the last scrape, as three gauges named by statistic
 * (`_p50_seconds`, `_p99_seconds`, `_max_seconds`, as prom-client names them):
 * a `quantile` label belongs to a summary's cumulative series, and these are
 * reset at every scrape. Absent until the loop has been sampled once.
 */
class LoopDelay implements Series {
  readonly #loop: IntervalHistogram;
  /** The last reading in seconds, kept through a scrape interval without samples (a blocked loop takes none). */
  #last: { p50: number; p99: number; max: number } | undefined;
  constructor(loop: IntervalHistogram) {
    this.#loop = loop;
  }
  render(): string[] {
    const l = this.#loop;
    if (l.count > 0) this.#last = { p50: l.percentile(50) / 1e9, p99: l.percentile(99) / 1e9, max: l.max / 1e9 };
    l.reset();
    const last = this.#last;
    if (!last) return [];
    return (
      [
        ['p50', 'median'],
        ['p99', '99th percentile'],
        ['max', 'longest'],
      ] as const
    ).flatMap(([stat, what]) => {
      const name = `kolradar_event_loop_delay_${stat}_seconds`;
      return [
        `# HELP ${name} Event-loop delay since the last scrape, ${what}.`,
        `# TYPE ${name} gauge`,
        `${name} ${last[stat]}`,
      ];
    });
  }
}

/** Every series the bot exports. */
export function createMetrics() {
  const series: Series[] = [];
  // Sampled every 10 ms by libuv; reported and reset per scrape.
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  // On Node 24 that histogram barely sees one long block (a 1 s stall reads as
  // ~10 ms), which is the stall a picture on the main thread would cause; a
  // heartbeat's lateness does see it: the longest per scrape is reported too.
  const BEAT_MS = 20;
  let due = performance.now() + BEAT_MS;
  let stall = 0;
  setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - due);
    due = now + BEAT_MS;
  }, BEAT_MS).unref();
  const add = <T extends Series>(s: T): T => {
    series.push(s);
    return s;
  };
  let roleSource: () => Record<string, number> = () => ({});
  return {
    commands: add(new Counter('kolradar_commands_total', 'Commands handled, by command and outcome.')),
    commandSeconds: add(
      new Histogram(
        'kolradar_command_duration_seconds',
        'Time to answer a command.',
        [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      ),
    ),
    upstreamSeconds: add(
      new Histogram(
        'kolradar_upstream_request_duration_seconds',
        'Upstream call time by operation (cache hits excluded).',
        [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      ),
    ),
    httpRefused: add(
      new Counter(
        'kolradar_http_refused_total',
        'Requests the HTTP entry points refused, by server and reason (signature, stale, secret, too_large, slow, busy).',
      ),
    ),
    upstreamCalls: add(
      new Counter('kolradar_upstream_calls_total', 'Upstream calls by operation and result (ok, cache, error).'),
    ),
    alertsMatched: add(
      new Counter('kolradar_alerts_matched_total', 'Tweet and subscription pairs matched by the watcher.'),
    ),
    alertsQueued: add(new Counter('kolradar_alerts_queued_total', 'Alerts written to the outbox.')),
    alertsSent: add(new Counter('kolradar_alerts_sent_total', 'Alerts accepted by a platform, by platform.')),
    alertsFailed: add(
      new Counter('kolradar_alerts_failed_total', 'Alert send failures by platform and kind (retry, gone, uncertain).'),
    ),
    rateLimitWaits: add(
      new Counter('kolradar_rate_limit_waits_total', 'Sends deferred by a platform rate limit, by platform.'),
    ),
    paidMessages: add(
      new Counter(
        'kolradar_telegram_paid_messages_total',
        'Telegram alerts sent as paid broadcasts (TELEGRAM_PAID_BROADCAST), above the free rate.',
      ),
    ),
    paidStars: add(
      new Counter('kolradar_telegram_paid_stars_total', 'Telegram Stars spent on paid broadcasts (0.1 per message).'),
    ),
    paidRefusals: add(
      new Counter(
        'kolradar_telegram_paid_refusals_total',
        'Paid sends Telegram refused (balance or eligibility); each went again at the free rate.',
      ),
    ),
    outboxDepth: add(new Gauge('kolradar_outbox_depth', 'Alerts waiting in the outbox after the last drain.')),
    feedRequests: add(
      new Counter('kolradar_feed_requests_total', 'Feed requests (operation 8) made by the watcher; each page counts.'),
    ),
    tweetToRead: add(
      new Histogram(
        'kolradar_alert_tweet_to_read_seconds',
        "From a tweet's time to the watcher's first read of it (upstream indexing included).",
        DELAY_BUCKETS,
      ),
    ),
    readToSent: add(
      new Histogram(
        'kolradar_alert_read_to_sent_seconds',
        "From the first read of an alert's tweet to the platform accepting the alert, by platform.",
        DELAY_BUCKETS,
      ),
    ),
    tweetToSent: add(
      new Histogram(
        'kolradar_alert_tweet_to_sent_seconds',
        "From an alert's tweet time to the platform accepting the alert, by platform.",
        DELAY_BUCKETS,
      ),
    ),
    watcherLag: add(new Gauge('kolradar_watcher_lag_seconds', 'Age of the newest tweet handled by the watcher.')),
    authorLookups: add(
      new Counter('kolradar_author_lookups_total', 'Operation 7 requests made to fill author facts the feed lacked.'),
    ),
    authorCacheHits: add(
      new Counter(
        'kolradar_author_cache_hits_total',
        'Tweets whose missing author facts came from the per-author cache.',
      ),
    ),
    authorUnknown: add(
      new Counter(
        'kolradar_author_facts_unknown_total',
        'Tweets whose KOL score, followers or labels stayed unknown after the lookup.',
      ),
    ),
    alertsHeld: add(
      new Counter(
        'kolradar_alerts_held_total',
        'Tweet and subscription pairs held back because a filter needed an unknown fact.',
      ),
    ),
    followupRequests: add(
      new Counter(
        'kolradar_followup_requests_total',
        'Operation 2 requests made for call follow-ups (one per due token per round).',
      ),
    ),
    followupsQueued: add(new Counter('kolradar_followups_queued_total', 'Follow-up edits of alerts queued.')),
    followupsDeferred: add(
      new Counter('kolradar_followups_deferred_total', 'Due tokens left for a later round by the per-minute budget.'),
    ),
    watcherTicks: add(
      new Counter('kolradar_watcher_ticks_total', 'Watcher ticks by result (leader, follower, error).'),
    ),
    eventLoopDelay: add(new LoopDelay(loop)),
    stall: add(
      new Gauge(
        'kolradar_event_loop_stall_seconds',
        'Longest event-loop stall since the last scrape (heartbeat lateness).',
        (g) => {
          g.set(Math.max(0, stall) / 1000);
          stall = 0;
        },
      ),
    ),
    memory: add(
      new Gauge(
        'kolradar_process_memory_bytes',
        'Process memory by kind (rss, heap_used, heap_total, external, array_buffers).',
        (g) => {
          const m = process.memoryUsage();
          g.set(m.rss, { kind: 'rss' });
          g.set(m.heapUsed, { kind: 'heap_used' });
          g.set(m.heapTotal, { kind: 'heap_total' });
          g.set(m.external, { kind: 'external' });
          g.set(m.arrayBuffers, { kind: 'array_buffers' });
        },
      ),
    ),
    roles: add(
      new Gauge(
        'kolradar_role',
        'Roles this instance holds (1) or not (0): watcher_leader, telegram_poller, discord_shard_<n>, discord_http.',
        (g) => {
          for (const [role, held] of Object.entries(roleSource())) g.set(held, { role });
        },
      ),
    ),
    ready: add(new Gauge('kolradar_ready', 'Whether /readyz answers 200 (1) or 503 (0), checked at the scrape.')),
    storeUp: add(
      new Gauge('kolradar_store_up', 'Whether the store took a write (1) or not (0), checked at the scrape.'),
    ),
    /** The readiness check's result at a scrape (ops/http.ts runs it before rendering). */
    health(ready: boolean, store: boolean): void {
      this.ready.set(ready ? 1 : 0);
      this.storeUp.set(store ? 1 : 0);
    },
    /** Where the role gauge reads from at each scrape. */
    setRoles(source: () => Record<string, number>): void {
      roleSource = source;
    },
    render(): string {
      return `${series.flatMap((s) => s.render()).join('\n')}\n`;
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
