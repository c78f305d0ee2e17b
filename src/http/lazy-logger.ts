// Fastify gives every request a child logger bound to its request id. Building a pino child
// serialises its bindings at once, which is most of the logging cost of a request that never
// logs anything (the usual case at LOG_LEVEL warn, and for every request below `info`).
// This factory hands out a stand-in that builds the real child only when a line is written
// at an enabled level, so logged lines are exactly what the eager child would have written.
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type Level = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';
type Bindings = Record<string, unknown>;
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];
/** A pino logger: Fastify's base logger plus what pino adds. */
type PinoLogger = FastifyBaseLogger & { isLevelEnabled(level: string): boolean; bindings(): Bindings };

class LazyChildLogger {
  private real: PinoLogger | null = null;

  constructor(
    private readonly parent: PinoLogger,
    private readonly bound: Bindings,
  ) {}

  private get logger(): PinoLogger {
    return (this.real ??= this.parent.child(this.bound) as PinoLogger);
  }

  get level(): string {
    return (this.real ?? this.parent).level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  isLevelEnabled(level: string): boolean {
    const l = this.real ?? this.parent;
    // Fastify's stand-in logger (logger: false) has no level test: its methods do nothing anyway.
    return typeof l.isLevelEnabled === 'function' ? l.isLevelEnabled(level) : true;
  }

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }

  bindings(): Bindings {
    return { ...(typeof this.parent.bindings === 'function' ? this.parent.bindings() : {}), ...this.bound };
  }

  silent(): void {}
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }

  private write(level: Level, args: unknown[]): void {
    if (!this.isLevelEnabled(level)) return;
    (this.logger[level] as (...a: unknown[]) => void)(...args);
  }
}

export const lazyChildLoggerFactory: NonNullable<FastifyServerOptions['childLoggerFactory']> = function (logger, bindings, options) {
  // A route with its own log level needs the real child (the level is an option of it).
  if (options && Object.keys(options).length > 0) return logger.child(bindings, options);
  return new LazyChildLogger(logger as PinoLogger, bindings) as unknown as FastifyBaseLogger;
};
