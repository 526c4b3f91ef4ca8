/**
 * Fan-out from the outbox to the platforms. Each destination is a queue of its
 * own, sent in order; many destinations run at once, and runs overlap, so one
 * slow or dead chat never holds up the others (not even the next run's alerts). Pacing to the platforms' limits lives in each
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
  const s = createState(o, drain);
  /** Runs not yet ended: they overlap, each sending destinations no other queue has. */
  const runs = new Set<Promise<void>>();
  /** A run is reading the outbox: a drain asked for meanwhile needs another read after it. */
  let reading = false;
  let wanted = false;

  function start(): void {
    reading = true;
    wanted = false;
    const run: Promise<void> = runOnce(s, () => {
      reading = false;
      if (wanted && !s.stopping) start();
    })
      .then(() => {
        // A destination moved during the run: its entries go out by a run of their own.
        if (s.again && !s.stopping) {
          s.again = false;
          request();
        }
      })
      .finally(() => runs.delete(run));
    runs.add(run);
    // Failures reach whoever waits in drain(); none is left unhandled meanwhile.
    run.catch(() => {});
  }

  function request(): void {
    if (reading) wanted = true;
    else start();
  }

  /** Until every run and every queue started since has ended; rejects with a run's store failure. */
  async function settled(): Promise<void> {
    for (;;) {
      const all = [...runs, ...s.tasks];
      if (all.length === 0) return;
      await Promise.all(all);
    }
  }

  function drain(): Promise<void> {
    if (s.stopping || !leading(s)) return Promise.resolve();
    // Follow-up edits under way yield, so new alerts go first.
    s.yieldFollowups = true;
    request();
    return settled();
  }

  return {
    drain,
    async stop() {
      s.stopping = true;
      clearTimeout(s.wakeTimer);
      await Promise.allSettled([...runs, ...s.tasks]);
    },
  };
}
