/**
 * Which subscriptions changed lately, in order: the watcher applies just those
 * to its index instead of reloading a million (issue #42). The journal is a
 * hint, never the truth: each entry carries the version token its write set,
 * and a reader that cannot account for the current version from the journal
 * (entries dropped, a writer it cannot see, a write between its two reads)
 * reloads everything, as every reader did before the journal existed.
 *
 * SQLite and memory stores belong to one process: the journal is that process's
 * memory. On Redis every instance writes to one shared list, a runtime key
 * beside the leases (spaces.ts): never copied by a store move, emptied by a
 * restore; a store moved or restored starts with none, and its readers reload once.
 */
import type { RedisClient } from './redis.ts';
import { withDeadline } from './redis.ts';

export interface JournalEntry {
  readonly seq: number;
  readonly id: string;
  readonly version: string;
}

/** Where a reader stands in the journal: the newest entry it read (seq 0: none). */
export interface JournalMark {
  readonly seq: number;
  readonly version: string;
}

export interface ChangeJournal {
  append(id: string, version: string): Promise<void>;
  /** The newest entry (seq 0: none yet). */
  head(): Promise<JournalMark>;
  /**
   * Entries after `mark`, oldest first; null when the journal cannot show they follow it:
   * the entry at the mark is no longer kept, or is another one (a journal lost and begun again).
   */
  after(mark: JournalMark): Promise<JournalEntry[] | null>;
}

const NONE: JournalMark = { seq: 0, version: '' };

/** Entries kept: a reader further behind than this reloads everything. */
export const JOURNAL_KEPT = 4096;

export function localJournal(kept = JOURNAL_KEPT): ChangeJournal {
  const entries: JournalEntry[] = [];
  let seq = 0;
  return {
    async append(id, version) {
      entries.push({ seq: ++seq, id, version });
      if (entries.length > kept * 2) entries.splice(0, entries.length - kept);
    },
    head: async () => entries.at(-1) ?? NONE,
    async after(mark) {
      const first = entries[0]?.seq ?? seq + 1;
      if (mark.seq === 0) return first === 1 ? [...entries] : null;
      const at = entries[mark.seq - first];
      if (at?.version !== mark.version) return null;
      return entries.slice(mark.seq + 1 - first);
    },
  };
}

const SEQ = 'kolradar:subjournal:seq';
const LOG = 'kolradar:subjournal:log';

/** One script: the number and the entry land together, whatever other instances do meanwhile. */
const APPEND = `
local n = redis.call('INCR', KEYS[1])
redis.call('RPUSH', KEYS[2], n .. '|' .. ARGV[1] .. '|' .. ARGV[2])
redis.call('LTRIM', KEYS[2], -tonumber(ARGV[3]), -1)
return n`;

/** `seq|version|id`: the version token is a UUID (no '|'); an id may hold anything. */
function parse(line: string): JournalEntry {
  const [n, version, ...id] = line.split('|');
  return { seq: Number(n), version: version!, id: id.join('|') };
}

export function redisJournal(redis: RedisClient, kept = JOURNAL_KEPT): ChangeJournal {
  return {
    async append(id, version) {
      await withDeadline(
        redis.eval(APPEND, { keys: [SEQ, LOG], arguments: [version, id, String(kept)] }),
        'a journal write',
      );
    },
    async head() {
      const last = await withDeadline(redis.lIndex(LOG, -1), 'a journal read');
      return last ? parse(last) : NONE;
    },
    async after(mark) {
      const head = await this.head();
      if (head.seq < mark.seq) return null;
      if (head.seq - mark.seq >= kept) return null;
      // The mark's own entry too, to show the rest follows it; and a little more than counted:
      // entries appended since the head was read must not push the mark out of the range.
      const raw = await withDeadline(
        redis.lRange(LOG, -Math.min(kept, head.seq - mark.seq + 257), -1),
        'a journal read',
      );
      const all = raw.map(parse);
      const at = all.findIndex((e) => e.seq === mark.seq);
      if (mark.seq === 0) return all[0]?.seq === 1 || all.length === 0 ? all : null;
      if (at < 0 || all[at]!.version !== mark.version) return null;
      return all.slice(at + 1);
    },
  };
}
