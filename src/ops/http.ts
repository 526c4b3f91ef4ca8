/**
 * Health and metrics over HTTP (`HTTP_PORT`): /healthz says the process is
 * alive, /readyz whether it can do its job (store reachable, every enabled
 * platform connected, and which role it has in the watcher lease), /metrics
 * the Prometheus series.
 */
import type { AddressInfo } from 'node:net';
import { createGuardedServer, type ServerLimits } from './limits.ts';

export interface ReadyChecks {
  store(): Promise<boolean>;
  platforms(): Record<string, boolean>;
  lease(): string;
}

export interface OpsServer {
  readonly port: number;
  close(): Promise<void>;
}

export async function startOpsServer(o: {
  port: number;
  /** Default 127.0.0.1: a scraper on another machine needs HTTP_HOST set on purpose. */
  host?: string;
  limits?: Partial<ServerLimits>;
  metrics: { render(): string };
  checks: ReadyChecks;
}): Promise<OpsServer> {
  const { server, close } = createGuardedServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const send = (status: number, body: string, type = 'text/plain; charset=utf-8') => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed\n');
    if (path === '/healthz') return send(200, 'ok\n');
    if (path === '/metrics') return send(200, o.metrics.render(), 'text/plain; version=0.0.4; charset=utf-8');
    if (path === '/readyz') {
      void (async () => {
        const store = await o.checks.store().catch(() => false);
        const platforms = o.checks.platforms();
        const ready = store && Object.values(platforms).every(Boolean);
        send(ready ? 200 : 503, `${JSON.stringify({ ready, store, platforms, watcher: o.checks.lease() })}\n`, 'application/json');
      })();
      return;
    }
    send(404, 'not found\n');
  }, { maxConnections: 64, ...o.limits });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host ?? '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close,
  };
}
