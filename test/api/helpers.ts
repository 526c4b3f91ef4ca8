import { after, before, type TestContext } from 'node:test';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.ts';
import { createKolClient, type KolClient, type KolClientOptions } from '../../src/api/index.ts';

export const API_KEY = 'sk-test-7d1f9a0c4b2e8f6a5d3c1b0e9f8a7d6c';

export interface Harness {
  sb: Sandbox;
  client: KolClient;
}

/**
 * One sandbox per test file (generating its data takes a moment); each test gets it with
 * faults cleared and the request log emptied, plus a fresh client closed when the test ends.
 */
export function sandboxPerFile(): (t: TestContext, client?: Partial<KolClientOptions>) => Promise<Harness> {
  let shared: Sandbox | undefined;
  before(async () => {
    shared = await startSandbox({ apiKey: API_KEY, seed: 7 });
  });
  after(async () => {
    await shared?.close();
  });
  return async (t, options = {}) => {
    const sb = shared;
    if (!sb) throw new Error('sandbox not started');
    sb.clearFaults();
    sb.resetRequests();
    const client = createKolClient({
      baseUrl: sb.url,
      apiKey: sb.apiKey,
      // The client's own timeouts and budget: a loaded machine can take a second over an ordinary
      // call, and a timeout there is a failure no user would see. Tests of the timeouts set theirs.
      retry: { attempts: 3, baseDelayMs: 5, maxDelayMs: 20 },
      ...options,
    });
    t.after(() => client.close());
    return { sb, client };
  };
}

/** Query of the last request that reached the sandbox, as the server received it. */
export function lastQuery(sb: Sandbox): URLSearchParams {
  const r = sb.requests.at(-1);
  if (!r) throw new Error('no request reached the sandbox');
  return new URLSearchParams(r.rawQuery);
}

export function lastPath(sb: Sandbox): string {
  const r = sb.requests.at(-1);
  if (!r) throw new Error('no request reached the sandbox');
  return r.path;
}
