import { Writable } from "node:stream";
import { ServerRouter, type EntryContext } from "react-router";
import { renderToPipeableStream } from "react-dom/server";
import { NonceProvider } from "~/lib/nonce";
import { appContext, type RequestContext } from "~/lib/context";

// server/http.ts builds each request's context with this build's own copy of the context keys.
export { createRequestContext } from "~/lib/context";

const ABORT_DELAY = 5_000;
export const streamTimeout = ABORT_DELAY;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RequestContext,
) {
  const nonce = appContext(loadContext).cspNonce;
  // The whole document is sent as one body once React has written all of it. Every loader has
  // already resolved when rendering starts (no deferred data), so streaming would only split the
  // same bytes into React's small chunks, each one passed through web streams, written to the
  // socket and flushed through gzip separately (+12–25 % requests/s on the list pages;
  // docs/decisions/0010-page-delivery.md).
  return new Promise<Response>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let shellRendered = false;
    const body = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
      final(done) {
        clearTimeout(abortTimer);
        const html = Buffer.concat(chunks);
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        responseHeaders.set("Content-Length", String(html.length));
        resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }));
        done();
      },
    });
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
        },
        // Piped once everything is ready, so the parts a route loads lazily (React.lazy in
        // Suspense, such as the rate form's live preview) are written in place, as plain HTML a
        // browser without JavaScript shows, instead of after the shell with a script to move them.
        onAllReady() {
          pipe(body);
        },
        onShellError(error: unknown) {
          clearTimeout(abortTimer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Before the shell, React Router reports it (handleError); after it, only this sees it.
          if (shellRendered) console.error(error);
        },
      },
    );
    // Aborts a render still waiting after ABORT_DELAY; cleared once the document is complete (React
    // starts rendering on a later tick, so the callbacks above always find it set).
    const abortTimer = setTimeout(abort, ABORT_DELAY);
  });
}
