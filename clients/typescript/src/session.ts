// The credential a client sends (README, "Signing in"): an API key, an access token given to
// it, or a login session. A session holds its tokens in this object's private fields only: the
// refresh token is never written anywhere, never logged and never put in a URL (it goes in the
// body of POST /auth/refresh). The access token is refreshed shortly before it expires, and
// after a 401 `token-expired`; refreshes are single-flight, because a refresh token is single
// use and presenting it twice revokes the whole session (theft detection).
import type { components } from './generated/openapi.js';

export type TokenResponse = components['schemas']['TokenResponse'];

/** Refresh this long before the access token expires: a minute, or a fifth of a shorter lifetime. */
const earlyMs = (lifetimeSec: number): number => Math.min(60_000, (lifetimeSec * 1000) / 5);

export class Credentials {
  #apiKey: string | null = null;
  #accessToken: string | null = null;
  #refreshToken: string | null = null;
  #refreshAt = Infinity;
  #refreshing: Promise<void> | null = null;

  /** `refresh` sends POST /auth/refresh with the token and returns the new pair. */
  constructor(private readonly refreshWith: (refreshToken: string) => Promise<TokenResponse>) {}

  useApiKey(key: string): void {
    this.clear();
    this.#apiKey = key;
  }

  /** An access token from elsewhere: used as is until it expires (no refresh token). */
  useAccessToken(token: string): void {
    this.clear();
    this.#accessToken = token;
  }

  /** A pair from login or refresh. Expiry is counted on this machine's clock from `expires_in`. */
  useTokens(t: TokenResponse): void {
    this.#apiKey = null;
    this.#accessToken = t.access_token;
    this.#refreshToken = t.refresh_token;
    this.#refreshAt = Date.now() + t.expires_in * 1000 - earlyMs(t.expires_in);
  }

  clear(): void {
    this.#apiKey = this.#accessToken = this.#refreshToken = null;
    this.#refreshAt = Infinity;
  }

  /** True when a refresh token is held: a 401 `token-expired` can be cured by refreshing. */
  get canRefresh(): boolean {
    return this.#refreshToken !== null;
  }

  get kind(): 'api-key' | 'session' | 'access-token' | 'none' {
    if (this.#apiKey) return 'api-key';
    if (this.#refreshToken) return 'session';
    return this.#accessToken ? 'access-token' : 'none';
  }

  /** The headers that authenticate a request, refreshing the access token first when it is about to expire. */
  async headers(): Promise<Record<string, string>> {
    if (this.#apiKey) return { 'X-Api-Key': this.#apiKey };
    if (this.#refreshToken && Date.now() >= this.#refreshAt) await this.refresh();
    return this.#accessToken ? { Authorization: `Bearer ${this.#accessToken}` } : {};
  }

  /** The access token now in use, if any (to tell whether a 401 was for a token since replaced). */
  get accessToken(): string | null {
    return this.#accessToken;
  }

  /**
   * Exchanges the refresh token for a new pair; concurrent callers share one exchange. With
   * `stale` (the access token a request was refused with), nothing is done when that token has
   * been replaced meanwhile.
   */
  refresh(stale?: string | null): Promise<void> {
    if (this.#refreshing) return this.#refreshing;
    if (stale !== undefined && stale !== this.#accessToken) return Promise.resolve();
    const token = this.#refreshToken;
    if (!token) return Promise.reject(new Error('no refresh token: log in first'));
    this.#refreshing = this.refreshWith(token)
      .then((pair) => {
        // A logout or another login while this one ran wins.
        if (this.#refreshToken === token) this.useTokens(pair);
      })
      .finally(() => {
        this.#refreshing = null;
      });
    return this.#refreshing;
  }
}
