export * from './tokens.ts';
export * from './kols.ts';
export * from './tweets.ts';
