import type { Command } from '../src/core/command.ts';
import { opt } from '../src/core/options.ts';
import { budgetFrom, knownKolId, kolNotFound, resolveKol, type ResolvedKol } from '../src/core/resolve.ts';
import { kolCard } from '../src/views/cards/kolCard.ts';
import { winRatePicture } from '../src/pictures/cards.ts';
import { withPicture } from '../src/pictures/draw.ts';

const options = {
  kol: opt.kol({
    required: true,
    positional: true,
    example: '@cryptoking',
  }),
};

export default {
  name: 'kol',
  options,
  examples: ['/kol @cryptoking', '/kol 1790912474830548992'],
  async run({ kol: input }, ctx) {
    const call = budgetFrom(ctx);
    const data = (xUserId: string) =>
      kolNotFound(
        input,
        Promise.all([ctx.api.getKolScore({ xUserId }, call()), ctx.api.getKolTokens({ xUserId }, call())]),
      );
    // A KOL looked up recently has a known id: its table row and its scores are fetched at once.
    const known = knownKolId(ctx, input);
    let kol: ResolvedKol;
    let scores: Awaited<ReturnType<typeof data>>;
    if (known) [kol, scores] = await Promise.all([resolveKol(ctx, input, call, { names: true }), data(known)]);
    else {
      kol = await resolveKol(ctx, input, call, { names: true });
      scores = await data(kol.xUserId);
    }
    const [score, momentum] = scores;
    const card = kolCard({ kol, score, momentum }, ctx.t);
    return withPicture(card, await winRatePicture(ctx, { kol, score, momentum }));
  },
} satisfies Command<typeof options>;
