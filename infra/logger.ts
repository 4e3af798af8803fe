/** The three levels every layer logs at. pino's logger (server/logger.ts) satisfies it; tests pass fakes. */
export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}
