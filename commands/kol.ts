import type { Command } from '../src/core/command.ts';
import { opt } from '../src/core/options.ts';
import { budgetFrom, kolNotFound, resolveKol } from '../src/core/resolve.ts';
import { kolCard } from '../src/views/build/kolCard.ts';
import { winRatePicture } from '../src/views/build/pictures.ts';

const options = {
  kol: opt.kol({ description: 'The KOL: @username, username or numeric X id', required: true, positional: true, example: '@cryptoking' }),
};

export default {
  name: 'kol',
  description: 'KOL card: rank, smart followers, scores and win rate after a shill',
  options,
  examples: ['/kol @cryptoking', '/kol 1790912474830548992'],
  async run({ kol: input }, ctx) {
    const call = budgetFrom(ctx);
    const kol = await resolveKol(ctx, input, call);
    const [score, momentum] = await kolNotFound(
      input,
      Promise.all([ctx.api.getKolScore({ xUserId: kol.xUserId }, call()), ctx.api.getKolTokens({ xUserId: kol.xUserId }, call())]),
    );
    const card = kolCard({ kol, score, momentum });
    const picture = winRatePicture(ctx, { kol, score, momentum });
    return picture ? { ...card, picture } : card;
  },
} satisfies Command<typeof options>;
