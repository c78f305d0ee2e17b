// The events feed: terminal events of jobs (and workflow runs), gap-free, long-polled.
import type { Module } from '../../api/module.js';
import { EVENT_SCHEMAS, eventRoutes } from './routes.js';
import { EventService } from './service.js';

declare module '../../services.js' {
  interface Services {
    events: EventService;
  }
}

export const eventsModule: Module = {
  name: 'events',
  provide: ({ db }) => ({ events: new EventService(db) }),
  schemas: EVENT_SCHEMAS,
  routes: eventRoutes,
  tasks: (s) => [s.events.purgeTask()],
  start: (s) => s.events.start(),
  stop: (s) => s.events.stop(),
};
