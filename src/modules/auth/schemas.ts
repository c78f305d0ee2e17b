import { Type } from '@sinclair/typebox';

export const TokenResponse = Type.Object(
  {
    access_token: Type.String({ description: 'Access token (JWT) for Authorization: Bearer' }),
    expires_at: Type.Integer({ description: 'Expiry of the access token as a UNIX timestamp' }),
    expires_in: Type.Integer({ description: 'Lifetime of the access token in seconds (900)' }),
    refresh_token: Type.String({ description: 'Single-use token for POST /auth/refresh (30 days)' }),
    token_type: Type.Optional(Type.String({ default: 'bearer' })),
  },
  { $id: 'TokenResponse', additionalProperties: false },
);

export const LoginForm = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 320, description: 'The account email' }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
    grant_type: Type.Optional(Type.String({ maxLength: 64 })),
    scope: Type.Optional(Type.String({ maxLength: 256 })),
    client_id: Type.Optional(Type.String({ maxLength: 256 })),
    client_secret: Type.Optional(Type.String({ maxLength: 256 })),
  },
  { additionalProperties: false },
);

export const RefreshBody = Type.Object({ refresh_token: Type.String({ minLength: 1, maxLength: 512 }) }, { additionalProperties: false });
export const RefreshQuery = Type.Object({ refresh_token: Type.String({ minLength: 1, maxLength: 512 }) }, { additionalProperties: false });
