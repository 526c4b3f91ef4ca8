/**
 * The composition root's reusable half: everything a bot needs except the chat
 * platforms. main.ts, the tests and the benchmarks build the same thing here, so
 * what is tested is what runs.
 */
import type { Logger } from 'pino';
import { createKolClient, type KolClient, type KolClientOptions } from './api/index.ts';
import type { Config } from './config.ts';
import { createAutoCards, type AutoCards, type AutoCardsOptions } from './core/autocard.ts';
import { createLookupBudget, type LookupBudget } from './core/budget.ts';
import { createDispatcher, type Dispatcher, type DispatcherOptions } from './core/dispatch.ts';
import { loadCommands } from './core/registry.ts';
import type { Sandbox } from './sandbox/server.ts';
import { describeStore, openStore, type Store } from './store/index.ts';
import { watchSchema } from './store/schema.ts';
import { createDelivery, type Delivery, type Sender } from './alerts/delivery.ts';
import { localLease, redisLease, type Lease } from './store/lease.ts';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { BLIND_AFTER_TICKS, createWatcher, type Watcher, type WatcherOptions } from './alerts/watcher.ts';
import { createFollowups } from './alerts/calls/followups.ts';
import { callNote } from './views/cards/memberCalls.ts';
import { marketNow } from './alerts/market.ts';
import { createDigests, type Digests } from './alerts/digest/runner.ts';
import { compactCards } from './views/cards/tokenCompact.ts';
import { sharedChartPool } from './views/charts/pool.ts';
import { cachedCharts } from './pictures/cache.ts';
import type { ChartPool } from './domain/charts.ts';
import { createMetrics, type Metrics } from './ops/metrics.ts';
import { recentCounts } from './ops/recent.ts';
import ownerCommand from '../commands/owner/index.ts';
import { idOf } from './core/owner.ts';
import { alertMetrics } from './app/alertMetrics.ts';
import type { WaitOptions } from './startup.ts';

export interface App {
  readonly config: Config;
  readonly log: Logger;
  readonly api: KolClient;
  readonly store: Store;
  readonly dispatcher: Dispatcher;
  /** Cards for pasted addresses and links, without a command. */
  readonly autoCards: AutoCards;
  /** Each sender's upstream budget for lookups outside commands, shared by every adapter. */
  readonly lookups: LookupBudget;
  /** The embedded upstream, when no KOL_API_BASE_URL was configured. */
  readonly sandbox: Sandbox | undefined;
  readonly metrics: Metrics;
  /** Names this process in the leases and claims it holds. */
  readonly instanceId: string;
  /** The watcher lease role, once alerts run: leader, follower or unknown. */
  leaseStatus(): string;
  /** For /readyz: undefined while the feed is read (or alerts do not run), else why the watcher is blind. */
  feedProblem(): string | undefined;
  /** A lease on a named role (the same mechanism as the watcher's): in the store on Redis, always held otherwise. */
  lease(name: string, ttlMs?: number): Lease;
  /** Starts the alert watcher and delivery through the given platform senders. */
  startAlerts(
    senders: readonly Sender[],
    opts?: Partial<
      Pick<
        WatcherOptions,
        | 'cron'
        | 'feedRequestsPerMinute'
        | 'marketHedgeMs'
        | 'budgetMs'
        | 'pageSize'
        | 'maxBacklog'
        | 'onTick'
        | 'onFollowups'
        | 'now'
        | 'sleep'
      >
    > & {
      /** The follow-up clock (tests move it by hours); default the wall clock. */
      readonly followupNow?: () => number;
      /** The digest clock (tests move it by days); default the wall clock. */
      readonly digestNow?: () => number;
      /** false: no node-cron schedule, checks only when a test calls them. */
      readonly digestSchedule?: boolean;
      /** false: the watcher is built but not started; a test ticks it and drains delivery itself. */
      readonly schedule?: boolean;
    },
  ): Watcher;
  /** Scheduled digests, once alerts run. */
  readonly digests: Digests | undefined;
  /** Alert delivery, once alerts run: drain() sends what is due now. */
  readonly delivery: Delivery | undefined;
  /** Stops the watcher and lets in-flight sends finish; before the adapters whose senders it uses stop. */
  stopAlerts(): Promise<void>;
  /**
   * Resolves with the line to log when a newer instance has contracted the store's
   * layout (schema.ts): this instance must stop taking work.
   */
  readonly outdated: Promise<string>;
  /** Stops the watcher (if started), then closes the client, the store and the sandbox. */
  close(): Promise<void>;
  /** Tells the owner's console which roles this instance holds (bot.ts knows the adapters'). */
  setRoles(roles: () => Record<string, unknown>): void;
  /** Where pictures are drawn (the web's call cards share it with the commands). */
  readonly charts: ChartPool;
  /** The commands' clock (tests move it): the web pages read the same time as /lb and /calls. */
  readonly now: () => number;
  /** The community pages' base URL once served: /web shows links under it. */
  setWebUrl(url: string | undefined): void;
}

/** How long an instance's beat counts: it beats three times within it. */
const BEAT_TTL_MS = 30_000;

export interface AppOverrides {
  readonly dispatcher?: Partial<
    Pick<DispatcherOptions, 'userLimit' | 'panelLimit' | 'actionTtlMs' | 'budgetMs' | 'now' | 'onOutcome'>
  >;
  /** Live feed rate of the embedded sandbox (tweets per second); 0 for a still feed. */
  readonly sandboxLiveRate?: number;
  /** The embedded sandbox's market caps walk on this clock (tests move it by hours); default: with a live feed, on the wall clock. */
  readonly sandboxMarket?: { readonly clock: () => number; readonly stepMs?: number };
  /** How start-up waits for the store: a signal to abort it, and who hears why it waits (see startup.ts). */
  readonly start?: Pick<WaitOptions, 'signal' | 'onWaiting' | 'say'>;
  readonly autoCards?: Partial<Pick<AutoCardsOptions, 'perMinute' | 'now'>>;
  /** How often a running instance re-reads the store's schema version (default 30 s). */
  readonly schemaCheckMs?: number;
  /** The upstream client's cache and retries (tests count every request, and retry fast). */
  readonly api?: Pick<KolClientOptions, 'cacheTtlMs' | 'retry'>;
  /** Where pictures are drawn (tests count the drawings); default the process's shared pool. */
  readonly charts?: ChartPool;
}

export async function createApp(config: Config, log: Logger, over: AppOverrides = {}): Promise<App> {
  let sandbox: Sandbox | undefined;
  let baseUrl = config.apiBaseUrl;
  let apiKey = config.apiKey;
  if (!baseUrl) {
    const { startSandbox } = await import('./sandbox/server.ts');
    const rate = over.sandboxLiveRate ?? 0.2;
    sandbox = await startSandbox({
      ...(rate > 0 ? { live: { tweetsPerSecond: rate } } : {}),
      ...(over.sandboxMarket ? { market: over.sandboxMarket } : {}),
    });
    baseUrl = sandbox.url;
    apiKey = sandbox.apiKey;
  }
  const metrics = createMetrics();
  const upstreamRecent = recentCounts();
  let roles: () => Record<string, unknown> = () => ({});
  const api = createKolClient({
    baseUrl,
    apiKey: apiKey ?? '',
    maxBodyBytes: config.apiMaxBodyBytes,
    logger: log,
    onCall: (e) => {
      metrics.upstreamCalls.inc({ operation: e.operation, result: e.outcome });
      if (e.outcome !== 'cache') upstreamRecent.add(e.operation);
      if (e.outcome !== 'cache') metrics.upstreamSeconds.observe(e.ms / 1000, { operation: e.operation });
    },
    ...over.api,
  });
  // Names this process in every lease it holds and in the schema mark, so an operator can tell who did what.
  const instanceId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  let store: Store;
  try {
    store = await openStore(config.storeUrl, {
      ...over.start,
      log,
      instance: instanceId,
      timeoutMs: config.storeConnectTimeoutMs,
      callsRetentionDays: config.callsRetentionDays,
      memberCalls: {
        windowMs: config.callWindowHours * 3_600_000,
        perDay: config.memberCallsPerDay,
        points: config.memberCallFollowups,
      },
    });
  } catch (err) {
    await api.close();
    await sandbox?.close();
    throw err;
  }
  log.info(
    { schema: store.schema.mark.version, found: store.schema.found },
    `store at schema version ${store.schema.mark.version}`,
  );
  let outdated: (line: string) => void = () => {};
  const outdatedLine = new Promise<string>((resolve) => (outdated = resolve));
  const schemaWatch = watchSchema({
    meta: store.space('meta'),
    where: describeStore(config.storeUrl),
    everyMs: over.schemaCheckMs ?? 30_000,
    onTooOld: (line) => {
      log.fatal({ schema: 'outdated' }, `${line} This instance stops taking work.`);
      outdated(line);
    },
  });
  const commands = await loadCommands();
  const lease = (name: string, ttlMs?: number): Lease =>
    store.redis ? redisLease(store.redis, { name, instanceId, ttlMs }) : localLease();
  let kick = () => {};
  let leaseState = () => 'not running';
  let watcher: Watcher | undefined;
  let digests: Digests | undefined;
  let delivering: Delivery | undefined;
  // The pool is the process's; the pictures it drew lately are this app's, kept on the commands' clock.
  const charts = cachedCharts(
    over.charts ?? sharedChartPool(),
    over.dispatcher?.now ? { now: over.dispatcher.now } : {},
  );
  // Every instance tells the owners' /owner stats that it runs, and its roles.
  const startedAt = Date.now();
  const beat = () =>
    store.instances
      .beat({ id: instanceId, roles: { watcher: leaseState(), ...roles() }, startedAt, at: Date.now() }, BEAT_TTL_MS)
      .catch((err: unknown) => log.debug({ err }, 'instance beat not written'));
  void beat();
  const beating = setInterval(beat, BEAT_TTL_MS / 3);
  beating.unref();
  let webUrl: string | undefined;
  const dispatcher = createDispatcher({
    commands,
    webUrl: () => webUrl,
    charts,
    api,
    store,
    log,
    kickAlerts: () => kick(),
    links: config.links,
    quotas: config.quotas,
    owner: {
      ids: config.owners,
      command: ownerCommand,
      tools: (caller) => ({
        store,
        self: idOf(caller.platform, caller.userId),
        runtime: () => ({
          upstreamLastHour: upstreamRecent.lastHour(),
          instance: instanceId,
          roles: { watcher: leaseState(), ...roles() },
        }),
        instances: () => store.instances.list(),
        kick: () => kick(),
      }),
    },
    onOutcome: (command, outcome, ms) => {
      metrics.commands.inc({ command, outcome });
      metrics.commandSeconds.observe(ms / 1000);
    },
    ...over.dispatcher,
  });
  const lookups = createLookupBudget(over.autoCards?.now ? { now: over.autoCards.now } : {});
  const autoCards = createAutoCards({
    cards: compactCards,
    api,
    store,
    log,
    lookups,
    bind: (view, chat) => dispatcher.bind(view, chat),
    memberCalls: { note: callNote },
    onOutcome: (command, outcome) => metrics.commands.inc({ command, outcome }),
    ...over.autoCards,
  });
  return {
    config,
    log,
    api,
    store,
    dispatcher,
    autoCards,
    lookups,
    sandbox,
    metrics,
    instanceId,
    leaseStatus: () => leaseState(),
    feedProblem() {
      const f = watcher?.feed();
      if (!f || f.failedTicks < BLIND_AFTER_TICKS) return undefined;
      const since =
        f.lastReadAt === null ? 'never read since start' : `last read ${new Date(f.lastReadAt).toISOString()}`;
      return `the tweet feed has not been read for ${f.failedTicks} ticks (${since}): alerts are blind`;
    },
    lease,
    startAlerts(senders, { followupNow, digestNow, digestSchedule, schedule, ...opts } = {}) {
      if (watcher) return watcher;
      const watcherLease = lease('watcher');
      const counted = alertMetrics(metrics);
      const followups = createFollowups({
        calls: store.calls,
        outbox: store.outbox,
        api,
        lease: watcherLease,
        log,
        perMinute: config.followupRequestsPerMinute,
        members: store.members,
        ...(followupNow ? { now: followupNow } : {}),
      });
      const delivery = createDelivery({
        outbox: store.outbox,
        subscriptions: store.subscriptions,
        senders,
        log,
        languages: store.languages,
        charts,
        lease: watcherLease,
        marketNow: (tokens) => marketNow(api, tokens, { budgetMs: 10_000, log }),
        onResult: counted.onResult,
        onDrained: counted.onDrained,
        calls: store.calls,
        ...(followupNow ? { now: followupNow } : {}),
      });
      const w = createWatcher({
        api,
        subscriptions: store.subscriptions,
        outbox: store.outbox,
        state: store.watch,
        pages: store.pages,
        delivery,
        lease: watcherLease,
        log,
        links: config.links,
        ...(config.watchCron !== undefined ? { cron: config.watchCron } : {}),
        ...(config.feedRequestsPerMinute !== undefined ? { feedRequestsPerMinute: config.feedRequestsPerMinute } : {}),
        followups,
        onTick: counted.onTick,
        onFeedRequest: counted.onFeedRequest,
        onTickError: counted.onTickError,
        onFollowups: counted.onFollowups,
        ...opts,
      });
      digests = createDigests({
        api,
        calls: store.calls,
        members: store.members,
        log,
        subscriptions: store.subscriptions,
        outbox: store.outbox,
        state: store.watch,
        languages: store.languages,
        lease: watcherLease,
        kick: () => w.kick(),
        ...(digestNow ? { now: digestNow } : {}),
      });
      if (digestSchedule !== false && schedule !== false) digests.start();
      watcher = w;
      leaseState = () => watcherLease.status();
      kick = () => w.kick();
      delivering = delivery;
      if (schedule !== false) w.start();
      return w;
    },
    get digests() {
      return digests;
    },
    get delivery() {
      return delivering;
    },
    outdated: outdatedLine,
    charts,
    now: over.dispatcher?.now ?? Date.now,
    setWebUrl(url) {
      webUrl = url;
    },
    setRoles(r) {
      roles = r;
    },
    async stopAlerts() {
      await digests?.stop();
      await watcher?.stop();
      // Started again later, alerts run as a new process would: a new lease, delivery and schedule.
      watcher = undefined;
      digests = undefined;
      delivering = undefined;
    },
    async close() {
      schemaWatch.stop();
      clearInterval(beating);
      await digests?.stop();
      await watcher?.stop();
      await api.close();
      await store.close();
      await sandbox?.close();
    },
  };
}
