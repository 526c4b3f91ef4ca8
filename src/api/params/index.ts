export * from './operations.ts';
export { validateParams } from './validate.ts';
