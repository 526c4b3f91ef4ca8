/** The eleven time windows the API measures after a shill, in order. */
export const WINDOWS = ['5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '24h', '7d'] as const;

export type Window = (typeof WINDOWS)[number];
