/** The subset of a pino logger the client uses; pino's Logger fits it. */
export interface LoggerLike {
  debug?(obj: object, msg?: string): void;
  warn?(obj: object, msg?: string): void;
  error?(obj: object, msg?: string): void;
}
