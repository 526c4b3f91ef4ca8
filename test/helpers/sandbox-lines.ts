/**
 * Command lines for every command that names a record (a token, a KOL): the
 * registry's own examples name records the sandbox does not have, so tests that
 * run every command swap these in.
 */
import type { Sandbox } from '../../src/sandbox/server.ts';

export function sandboxLines(sb: Sandbox) {
  const kol = sb.data.kols[0]!;
  const tok = sb.data.tokens.find((x) => x.chain_id === 'solana' && x.marketcap > 0)!;
  const lines: Record<string, string> = {
    token: `/token solana ${tok.address}`,
    mindmap: `/mindmap solana ${tok.address}`,
    mute: `/mute solana ${tok.address}`,
    tweets: `/tweets solana ${tok.address}`,
    kol: `/kol @${kol.username}`,
    kolmap: `/kolmap @${kol.username}`,
    momentum: `/momentum @${kol.username}`,
  };
  return { kol, tok, lines };
}
