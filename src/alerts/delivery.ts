/**
 * Fan-out from the outbox to the platforms. Each destination is a queue of its
 * own, sent in order; many destinations run at once, so one slow or dead chat
 * never holds up the others. Pacing to the platforms' limits lives in each
 * platform's Sender (grammY and discord.js transports), which knows its rules.
 *
 * The parts, around one explicit state (delivery/state.ts):
 *   queue.ts     a run over the outbox, destination by destination
 *   regroup.ts   quiet hours held and summarised, bursts merged
 *   outcome.ts   one send and what its answer means (retry, give up, disable)
 *   compose.ts   the entry as a View in the destination's language
 *   amend.ts     more KOLs added to an alert already out
 *   followup.ts  calls recorded, follow-up edits
 */
import { runOnce } from './delivery/queue.ts';
import { createState, leading, type Delivery, type DeliveryOptions } from './delivery/state.ts';

export type { Delivery, DeliveryOptions } from './delivery/state.ts';
export { nonceFor, type Sender, type SendResult } from './delivery/types.ts';

export function createDelivery(o: DeliveryOptions): Delivery {
  let running: Promise<void> | undefined;
  const s = createState(o, drain);

  function drain(): Promise<void> {
    if (s.stopping || !leading(s)) return Promise.resolve();
    if (running) {
      s.again = true;
      s.yieldFollowups = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          s.again = false;
          await runOnce(s);
        } while (s.again && !s.stopping);
      } finally {
        running = undefined;
      }
    })();
    return running;
  }

  return {
    drain,
    async stop() {
      s.stopping = true;
      clearTimeout(s.wakeTimer);
      await running?.catch(() => {});
    },
  };
}
