// What the Assistant's routes share (docs/assistant.md, "Endpoints"): every one takes an access
// token only (an API key gets 403 api-key-management-forbidden).
import { routeFactory } from '../../../api/declare-route.js';
import { principalOf } from '../../../api/route.js';

export const tags = ['assistant'];
export const config = { auth: 'token' as const };
export const route = routeFactory({ tags, config });
export const user = (r: Parameters<typeof principalOf>[0]) => principalOf(r).userId;
