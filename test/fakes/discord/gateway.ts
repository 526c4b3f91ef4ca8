// Gateway v10 over `ws`, JSON encoding, no compression: HELLO, IDENTIFY -> READY +
// GUILD_CREATE, heartbeats, RESUME with replay, and the ways a connection ends.
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { WebSocket, WebSocketServer } from 'ws';
import { guildPayload, readyPayload, shardOf } from './payloads.ts';
import type { FakeState } from './state.ts';
import type { GatewayEvent } from './types.ts';

interface Dispatch {
  op: 0;
  t: string;
  s: number;
  d: unknown;
}

interface Session {
  id: string;
  seq: number;
  /** Dispatches kept for RESUME replay. */
  log: Dispatch[];
  socket: WebSocket | undefined;
  /** Set by dropConnection({ invalidateSession }) so the next RESUME is refused. */
  invalid: boolean;
  /** [shard_id, num_shards] from IDENTIFY; [0, 1] when not sharded. */
  shard: [number, number];
  /** Gateway intents from IDENTIFY. */
  intents: number;
}

/** Guild events carry guild_id; GUILD_CREATE and GUILD_DELETE are the guild itself. */
function guildOf(t: string, d: unknown): string | undefined {
  const data = (d ?? {}) as { guild_id?: unknown; id?: unknown };
  if (typeof data.guild_id === 'string') return data.guild_id;
  if ((t === 'GUILD_CREATE' || t === 'GUILD_DELETE') && typeof data.id === 'string') return data.id;
  return undefined;
}

/** The privileged intent the portal must allow. */
const MESSAGE_CONTENT = 1 << 15;

const REPLAY_LIMIT = 5000;
/** Discord lets each identify bucket start one session per 5 s. */
const IDENTIFY_WINDOW_MS = 5000;

export class Gateway {
  readonly events: GatewayEvent[] = [];
  /** IDENTIFYs that came within 5 s of another in the same bucket (shard_id % max_concurrency): Discord's limit. */
  identifyViolations = 0;
  readonly #lastIdentify = new Map<number, number>();
  readonly #state: FakeState;
  readonly #wss: WebSocketServer;
  readonly #sessions = new Map<string, Session>();
  readonly #waiters = new Set<() => void>();

  constructor(state: FakeState, server: Server) {
    this.#state = state;
    this.#wss = new WebSocketServer({ server });
    this.#wss.on('connection', (socket) => this.#onConnection(socket));
  }

  /**
   * Sends a dispatch to every session of the event's shard, as Discord does:
   * a guild's events to every session identified with (guild_id >> 22) %
   * num_shards, DMs to shard 0. Sessions waiting to resume get it on replay.
   */
  dispatch(t: string, d: unknown): void {
    if (this.#sessions.size === 0) {
      throw new Error(`discord fake: no gateway session to deliver ${t}; log the client in first`);
    }
    const guildId = guildOf(t, d);
    for (const session of this.#sessions.values()) {
      const [id, count] = session.shard;
      if ((guildId === undefined ? 0 : shardOf(guildId, count)) === id) this.#send(session, t, d);
    }
  }

  /** The [shard_id, num_shards] of every session Discord knows now (live or resumable). */
  get shards(): [number, number][] {
    return [...this.#sessions.values()].map((s) => s.shard);
  }

  /** Sends a dispatch shaped per session (by its intents); undefined skips that session. */
  dispatchWith(t: string, shape: (intents: number) => unknown): void {
    if (this.#sessions.size === 0)
      throw new Error(`discord fake: no gateway session to deliver ${t}; log the client in first`);
    for (const session of this.#sessions.values()) {
      const d = shape(session.intents);
      if (d !== undefined) this.#send(session, t, d);
    }
  }

  get connected(): boolean {
    return [...this.#sessions.values()].some((s) => s.socket?.readyState === WebSocket.OPEN);
  }

  /** Closes live connections: abruptly by default (1006 on the client), or with a close code. */
  drop(options: { code?: number; invalidateSession?: boolean } = {}): number {
    let dropped = 0;
    for (const session of this.#sessions.values()) {
      if (options.invalidateSession) session.invalid = true;
      const socket = session.socket;
      // Discord forgets the session when it closes with a normal code.
      if (options.code === 1000 || options.code === 1001) this.#sessions.delete(session.id);
      if (!socket) continue;
      session.socket = undefined;
      dropped += 1;
      if (options.code === undefined) socket.terminate();
      else socket.close(options.code, 'dropped by test');
    }
    return dropped;
  }

  /** Resolves at the first event of this kind recorded at or after index `from`. */
  waitFor(kind: GatewayEvent['kind'], from: number, timeoutMs: number): Promise<GatewayEvent> {
    const find = () => this.events.slice(from).find((e) => e.kind === kind);
    const hit = find();
    if (hit) return Promise.resolve(hit);
    return new Promise((resolve, reject) => {
      const check = () => {
        const event = find();
        if (!event) return;
        clearTimeout(timer);
        this.#waiters.delete(check);
        resolve(event);
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        reject(new Error(`discord fake: no gateway '${kind}' within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#waiters.add(check);
    });
  }

  close(): Promise<void> {
    for (const client of this.#wss.clients) client.terminate();
    return new Promise((resolve) => this.#wss.close(() => resolve()));
  }

  #record(kind: GatewayEvent['kind'], code?: number): void {
    const event: GatewayEvent = { kind, at: Date.now() };
    if (code !== undefined) event.code = code;
    this.events.push(event);
    for (const waiter of [...this.#waiters]) waiter();
  }

  #send(session: Session, t: string, d: unknown): void {
    session.seq += 1;
    const payload: Dispatch = { op: 0, t, s: session.seq, d };
    session.log.push(payload);
    if (session.log.length > REPLAY_LIMIT) session.log.splice(0, session.log.length - REPLAY_LIMIT);
    if (session.socket?.readyState === WebSocket.OPEN) session.socket.send(JSON.stringify(payload));
  }

  #onConnection(socket: WebSocket): void {
    this.#record('connect');
    let session: Session | undefined;
    const raw = (payload: unknown) => {
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(payload));
    };
    raw({
      op: 10,
      s: null,
      t: null,
      d: { heartbeat_interval: this.#state.heartbeatIntervalMs, _trace: ['["fake-gateway",{}]'] },
    });

    // A client vanishing mid-frame must not crash the test process.
    socket.on('error', () => socket.terminate());
    socket.on('message', (data) => {
      let payload: { op?: unknown; d?: unknown };
      try {
        payload = JSON.parse(String(data)) as { op?: unknown; d?: unknown };
      } catch {
        socket.close(4002, 'Error while decoding payload.');
        return;
      }
      const d = (payload.d ?? {}) as Record<string, unknown>;
      switch (payload.op) {
        case 1:
          this.#record('heartbeat');
          raw({ op: 11, s: null, t: null, d: null });
          return;
        case 2: {
          if (session) return socket.close(4005, 'Already authenticated.');
          if (d['token'] !== this.#state.token) return socket.close(4004, 'Authentication failed.');
          const shard = Array.isArray(d['shard']) ? (d['shard'] as unknown[]).map(Number) : [0, 1];
          const [shardId = 0, shardCount = 1] = shard;
          if (
            !Number.isInteger(shardId) ||
            !Number.isInteger(shardCount) ||
            shardCount < 1 ||
            shardId < 0 ||
            shardId >= shardCount
          ) {
            return socket.close(4010, 'Invalid shard.');
          }
          const intents = typeof d['intents'] === 'number' ? d['intents'] : 0;
          if ((intents & MESSAGE_CONTENT) !== 0 && !this.#state.messageContentIntent)
            return socket.close(4014, 'Disallowed intent(s).');
          this.#record('identify');
          const bucket = shardId % this.#state.maxConcurrency;
          const last = this.#lastIdentify.get(bucket);
          if (last !== undefined && Date.now() - last < IDENTIFY_WINDOW_MS) this.identifyViolations++;
          this.#lastIdentify.set(bucket, Date.now());
          this.#state.sessionStartRemaining = Math.max(0, this.#state.sessionStartRemaining - 1);
          session = {
            id: randomBytes(16).toString('hex'),
            seq: 0,
            log: [],
            socket,
            invalid: false,
            shard: [shardId, shardCount],
            intents,
          };
          this.#sessions.set(session.id, session);
          this.#send(session, 'READY', readyPayload(this.#state, session.id, session.shard));
          for (const guild of this.#state.activeGuilds()) {
            if (shardOf(guild.id, shardCount) === shardId)
              this.#send(session, 'GUILD_CREATE', guildPayload(this.#state, guild));
          }
          return;
        }
        case 6: {
          const wanted = this.#sessions.get(String(d['session_id']));
          if (!wanted || wanted.invalid || d['token'] !== this.#state.token) {
            this.#record('invalid-session');
            if (wanted) this.#sessions.delete(wanted.id);
            raw({ op: 9, s: null, t: null, d: false });
            return;
          }
          this.#record('resume');
          wanted.socket?.terminate();
          wanted.socket = socket;
          session = wanted;
          const seq = typeof d['seq'] === 'number' ? d['seq'] : 0;
          for (const missed of wanted.log) if (missed.s > seq) raw(missed);
          this.#send(wanted, 'RESUMED', { _trace: ['["fake-gateway",{}]'] });
          return;
        }
        case 3:
        case 4:
        case 8:
          return;
        default:
          socket.close(4001, 'Unknown opcode.');
      }
    });

    socket.on('close', (code) => {
      this.#record('close', code);
      if (!session || session.socket !== socket) return;
      session.socket = undefined;
      // A client's normal close ends its session for good; other codes leave it resumable.
      if (code === 1000 || code === 1001) this.#sessions.delete(session.id);
    });
  }
}
