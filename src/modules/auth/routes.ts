import formbody from '@fastify/formbody';
import { Type } from '@sinclair/typebox';
import { ok, routeFactory } from '../../api/declare-route.js';
import { routeSequence, type RoutePlugin } from '../../api/module.js';
import { principalOf } from '../../api/route.js';
import { AppError } from '../../errors.js';
import { LoginForm, RefreshBody, RefreshQuery, TokenResponse } from './schemas.js';

const FORM = 'application/x-www-form-urlencoded';

const route = routeFactory({ tags: ['auth'] });

const loginWithEmail: RoutePlugin = async (app, { services }) => {
  const { sessions, config } = services;

  // Only login takes a form body: the form parser lives in this route's own plugin context, so a
  // form sent to any other route is a 415 like every other content type but JSON.
  await app.register(async (login) => {
    await login.register(formbody, { bodyLimit: config.bodyLimitBytes });
    login.post(
      '/auth/login-email',
      {
        config: { auth: 'none' },
        preValidation: async (request) => {
          const [mediaType = ''] = (request.headers['content-type'] ?? '').split(';');
          const type = mediaType.trim().toLowerCase();
          if (type !== FORM)
            throw new AppError('unsupported-media-type', `login takes a form body (Content-Type: ${FORM}) with username and password, not "${type || 'no content type'}"`);
        },
        schema: {
          operationId: 'loginWithEmail',
          tags: ['auth'],
          summary: 'Log in with email and password (form body)',
          body: { content: { [FORM]: { schema: LoginForm } } },
          response: { 200: Type.Ref(TokenResponse, { description: 'An access token (900 s) and a refresh token (30 days, single use)' }) },
        },
      },
      async (request) => {
        const form = request.body as { username: string; password: string };
        return sessions.login(form.username, form.password, request.ip);
      },
    );
  });
};

const checkCredential = route('GET /auth/check', 'checkCredential', {
  summary: 'Check a credential (X-Api-Key or Authorization: Bearer)',
  response: ok('MessageResponse', 'The credential is valid'),
  handler: async (_services, request) => {
    const p = principalOf(request);
    return { message: `authenticated as ${p.email} with ${p.via === 'api_key' ? 'an API key' : 'an access token'}` };
  },
});

const refreshTokens = route('POST /auth/refresh', 'refreshTokens', {
  config: { auth: 'none' },
  summary: 'Exchange a refresh token for a new token pair',
  body: RefreshBody,
  response: ok(TokenResponse, 'A new token pair; the refresh token given is spent'),
  handler: async ({ sessions }, request) => sessions.refresh(request.body.refresh_token),
});

const refreshTokensDeprecated: RoutePlugin = async (app, { services }) => {
  const { sessions, config } = services;
  const sunset = config.refreshGetSunset;
  app.get(
    '/auth/refresh',
    {
      config: { auth: 'none', deprecated: { sunset, successor: '/api/v1/auth/refresh' } },
      schema: {
        operationId: 'refreshTokensDeprecated',
        tags: ['auth'],
        summary: 'Deprecated: refresh with the token in the URL (use POST /auth/refresh)',
        description: `Deprecated on 2026-09-29; refuses after ${sunset.toUTCString()}. Sends the refresh token in the URL, where logs keep it.`,
        querystring: RefreshQuery,
        response: { 200: Type.Ref(TokenResponse, { description: 'A new token pair (deprecated route: Deprecation, Sunset and Link headers)' }) },
      },
    },
    async (request) => {
      if (Date.now() >= sunset.getTime()) {
        throw new AppError('gone', `GET /auth/refresh was removed on ${sunset.toUTCString()}; POST the refresh token in a JSON body to /api/v1/auth/refresh`, {
          retry: 'terminal',
        });
      }
      return sessions.refresh(request.query.refresh_token);
    },
  );
};

const logout = route('GET /auth/logout', 'logout', {
  config: { scope: 'read' },
  summary: 'End the session of the access token',
  response: ok('MessageResponse', 'The session is ended: its access and refresh tokens stop working'),
  handler: async ({ sessions }, request) => {
    const p = principalOf(request);
    if (!p.sessionId) return { message: 'API keys have no session to end; revoke the key with DELETE /api/v1/auth/api-keys/{key_id} to stop it' };
    await sessions.logout(p.sessionId);
    return { message: 'logged out: the access token and refresh token of this session no longer work' };
  },
});

export const authRoutes = routeSequence(loginWithEmail, checkCredential, refreshTokens, refreshTokensDeprecated, logout);
