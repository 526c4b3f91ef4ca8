/**
 * Scan cost of the token-reference detector on 4,096-character messages (the
 * Telegram maximum): every message a chat with automatic cards sees goes
 * through it, so it must cost far less than a millisecond. The target is on
 * the median: on a shared 2-core machine the p99 mostly measures the neighbours.
 */
import { findTokenRefs } from '../src/core/detect.ts';
import { summary, type Row } from './stats.ts';

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const BSC = '0x55d398326f99059fF775485246999027B3197955';
const TARGET_MS = 1;

function messages(): [string, string][] {
  const chat = 'gm frens, wen moon? this one is sending 🚀🚀 lfg ser, 0xdeadbeef lol. ';
  const fill = (s: string) => (s + chat.repeat(80)).slice(0, 4096);
  const links = Array.from(
    { length: 30 },
    () => `https://dexscreener.com/solana/${USDC} https://bscscan.com/token/${BSC} `,
  ).join('');
  const words = Array.from({ length: 120 }, (_, i) => `Supercalifragilistic${i}word`).join(' ');
  return [
    ['no candidate', fill('')],
    ['one address at the end', `${chat.repeat(60).slice(0, 4096 - USDC.length - 1)} ${USDC}`],
    ['links only', links.slice(0, 4096)],
    ['long base58-looking words', fill(words)],
  ];
}

export async function benchDetect(runs = 2_000): Promise<Row[]> {
  const rows: Row[] = [];
  for (const [name, text] of messages()) {
    for (let i = 0; i < 200; i++) findTokenRefs(text); // warm-up
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      findTokenRefs(text);
      samples.push(performance.now() - t0);
    }
    const s = summary(samples);
    rows.push({
      area: 'detect',
      metric: `scan 4,096 chars, ${name} (p50 / p99)`,
      value: `${(s.p50 * 1000).toFixed(1)} / ${(s.p99 * 1000).toFixed(1)} µs`,
      target: `< ${TARGET_MS} ms`,
      ok: s.p50 < TARGET_MS,
    });
  }
  return rows;
}
