/**
 * FNV-1a, 32 bits: the one hash of the alert pipeline, for stable ids (batch
 * ids, Discord nonces) and the matcher's cheap fingerprints. Not node:crypto:
 * the matcher hashes every tweet's author and token against an index of
 * 100,000 subscriptions and wants a number, not a digest string; nothing here
 * needs resistance to an adversary, and every matcher hit is confirmed on the strings.
 */
export function fnv1a(text: string, basis = 0x811c9dc5): number {
  let h = basis;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}
