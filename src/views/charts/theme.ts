/**
 * Dark palette shared by every chart: it sits on Discord's and Telegram's dark
 * backgrounds without a bright frame, and keeps enough contrast in light mode.
 */
export const THEME = {
  background: '#12161f',
  panel: '#1a2030',
  grid: '#2a3246',
  axis: '#4a5570',
  text: '#e8ecf4',
  muted: '#9aa4b8',
  faint: '#6b7690',
  accent: '#f5b942',
  up: '#2ecc71',
  down: '#ff5c5c',
  neutral: '#7f8aa3',
  node: '#3b82c4',
  nodeStroke: '#8cc4f2',
  edge: '#7fa9d6',
  halo: '#12161f',
} as const;

/** Eight line colours that stay apart from each other on the dark background. */
export const SERIES_COLOURS: readonly string[] = [
  '#4fc3f7',
  '#f5b942',
  '#ef6fd0',
  '#7ee081',
  '#ff8a65',
  '#b39dff',
  '#4dd0c4',
  '#e6e6e6',
];

export const FONT_SIZE = {
  title: 26,
  subtitle: 15,
  axis: 13,
  label: 13,
  value: 12,
} as const;

/** How narrow a picture is shown: a phone in portrait. */
export const PHONE_WIDTH = 390;
/** The smallest text a reader can take in there, in px. */
export const PHONE_MIN_TEXT = 11;

/** The smallest font size that stays PHONE_MIN_TEXT px tall when a picture `width` wide is shown on a phone. */
export function legibleSize(width: number): number {
  return Math.ceil((PHONE_MIN_TEXT * width) / PHONE_WIDTH);
}
