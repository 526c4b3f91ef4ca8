// The fake called as a bare HTTP client would, for tests of the fake's own rules.
import type { TestContext } from 'node:test';
import { startTelegramFake, type TelegramFake } from './index.ts';

/** A fake without flood limits, closed after the test. */
export async function openFake(t: TestContext): Promise<TelegramFake> {
  const fake = await startTelegramFake({ limits: false });
  t.after(() => fake.close());
  return fake;
}

export interface RawAnswer {
  ok: boolean;
  description?: string;
  result?: any;
}

/** One Bot API call as JSON, answered as Telegram answers (ok, description, result). */
export async function callRaw(
  fake: TelegramFake,
  method: string,
  params: Record<string, unknown> = {},
): Promise<RawAnswer> {
  const res = await fetch(`${fake.apiRoot}/bot${fake.token}/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(params),
  });
  return (await res.json()) as RawAnswer;
}
