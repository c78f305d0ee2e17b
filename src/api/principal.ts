export type Scope = 'read' | 'write';

/** Who is calling, resolved once per request from an API key or an access token. */
export interface Principal {
  userId: string;
  email: string;
  tier: number;
  via: 'api_key' | 'token';
  scopes: ReadonlySet<Scope>;
  keyId: string | null;
  sessionId: string | null;
  allowStructureSearch: boolean;
  spendCeilingMicros: number | null;
}

/** The credential's identity for rate limiting. */
export function credentialId(p: Principal): string {
  return p.via === 'api_key' ? `key:${p.keyId}` : `session:${p.sessionId}`;
}
