// One dashboard request's memo of who the caller is.
//
// A page's loaders call the embedded API in-process several times (layout, header, KPIs,
// charts…), all with the same ID token. Without this, every call verified the token again
// (firebase-admin asks the provider whether it was revoked: one HTTP round trip each) and looked
// the company up again. The server creates one PageScope per dashboard request and hands it to
// the in-process API as a Hono binding; the API then verifies a token and reads the caller's
// company once per page. Nothing is kept across requests, so a revocation or a suspension takes
// effect on the very next page, exactly as before. Calls over HTTP (API_BASE_URL, external
// clients) carry no scope and are checked in full every time.
import type { TokenClaims, VerifyToken } from "./env";

export class PageScope {
  private readonly tokens = new Map<string, Promise<TokenClaims>>();
  private readonly businesses = new Map<string, Promise<unknown>>();

  /** The token's verdict, asked of the verifier once per page (a refusal is remembered too). */
  verify(idToken: string, verifyToken: VerifyToken): Promise<TokenClaims> {
    let verdict = this.tokens.get(idToken);
    if (!verdict) {
      verdict = verifyToken(idToken);
      verdict.catch(() => {}); // the caller that awaits it handles the refusal
      this.tokens.set(idToken, verdict);
    }
    return verdict;
  }

  /**
   * The caller's companies and roles (membership is checked on every request, so a
   * removed member is refused on the next one), read once per page until a write in the same
   * request. `key` names the caller and the company asked for.
   */
  business<T>(key: string, load: () => Promise<T>): Promise<T> {
    let row = this.businesses.get(key) as Promise<T> | undefined;
    if (!row) {
      row = load();
      row.catch(() => this.businesses.delete(key)); // a failed read is not remembered
      this.businesses.set(key, row);
    }
    return row;
  }

  /** A write (an action before the loaders of a document POST) may change the company. */
  forgetBusinesses(): void {
    this.businesses.clear();
  }
}

/** The scope the server bound to this in-process call, if any (never present over HTTP). */
export function pageScopeOf(bindings: unknown): PageScope | undefined {
  const scope = (bindings as { pageScope?: unknown } | undefined)?.pageScope;
  return scope instanceof PageScope ? scope : undefined;
}
