/**
 * Tasks under one key run one after another, each once the previous one has
 * settled; tasks under other keys do not wait. For a read-modify-write of one
 * stored record by several tasks of one process (a subscription changed by two
 * admins at once, a call list, a chat's move). A key is forgotten once its last
 * task settles, so the map holds only keys with work in hand.
 */
export type Turns = <T>(key: string, task: () => Promise<T>) => Promise<T>;

export function keyedTurns(): Turns {
  const tails = new Map<string, Promise<unknown>>();
  return (key, task) => {
    const run = (tails.get(key) ?? Promise.resolve()).then(task, task);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };
}
