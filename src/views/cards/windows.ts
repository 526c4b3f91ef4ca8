/**
 * The eleven windows the API measures after a shill, and what each operation
 * calls them: one table, so /kol, /momentum and /winrate cannot disagree on
 * which field "24h" reads (operation 4 says `1d` for prices, `24h` for win rates).
 */
import type {
  KolTokenItem,
  KolTokensResult,
  KolTokensSortField,
  WinRateItem,
  WinRateSortField,
} from '../../api/index.ts';
import { WINDOWS as WINDOW_LABELS, type Window as WindowLabel } from '../charts/windows.ts';

/** What operation 4's price fields and operation 5 call each window: the day is `1d` there. */
type ApiWindow = '5m' | '15m' | '30m' | '1h' | '2h' | '4h' | '6h' | '8h' | '12h' | '1d' | '7d';
/** What operation 4's summary and sort call it: the day is `24h` there. */
type SummaryWindow = Exclude<ApiWindow, '1d'> | '24h';

export interface WindowDef {
  /** What users type and see. */
  readonly label: WindowLabel;
  readonly ms: number;
  /** Operation 4: `price_after…` key and win-rate summary key. */
  readonly priceKey: `price_after${ApiWindow}` & keyof KolTokenItem;
  readonly summaryKey: `win_rate${SummaryWindow}` & keyof KolTokensResult['summary'];
  /** Operation 4 sortField. */
  readonly momentumSort: SummaryWindow & KolTokensSortField;
  /** Operation 5: item key and sortField. */
  readonly winRateKey: `win_rate_after${ApiWindow}` & keyof WinRateItem;
  readonly winRateSort: `winRateAfter${ApiWindow}` & WinRateSortField;
}

const M = 60_000;
const H = 60 * M;

function w(label: WindowLabel, ms: number, api: ApiWindow): WindowDef {
  const summary: SummaryWindow = api === '1d' ? '24h' : api;
  return {
    label,
    ms,
    priceKey: `price_after${api}`,
    summaryKey: `win_rate${summary}`,
    momentumSort: summary,
    winRateKey: `win_rate_after${api}`,
    winRateSort: `winRateAfter${api}`,
  };
}

export const WINDOWS: readonly WindowDef[] = [
  w('5m', 5 * M, '5m'),
  w('15m', 15 * M, '15m'),
  w('30m', 30 * M, '30m'),
  w('1h', H, '1h'),
  w('2h', 2 * H, '2h'),
  w('4h', 4 * H, '4h'),
  w('6h', 6 * H, '6h'),
  w('8h', 8 * H, '8h'),
  w('12h', 12 * H, '12h'),
  w('24h', 24 * H, '1d'),
  w('7d', 7 * 24 * H, '7d'),
];

export { WINDOW_LABELS, type WindowLabel };

const DEFAULT_SHOWN = ['1h', '24h', '7d'];

/** The columns of a table by window (/momentum, /winrate): 1h, 24h, 7d, and the sorted window when sorted by one. */
export function shownWindows(sortedBy: string | undefined): WindowDef[] {
  return WINDOWS.filter((w) => w.label === sortedBy || DEFAULT_SHOWN.includes(w.label));
}

export function windowDef(label: string): WindowDef | undefined {
  return WINDOWS.find((x) => x.label === label);
}

/** Aliases users try for the day window. */
export const WINDOW_ALIASES: Readonly<Record<string, WindowLabel>> = { '1d': '24h', '7days': '7d', '1w': '7d' };
