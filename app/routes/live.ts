// GET /live: the signed-in company's live events (server-sent events) for the dashboards'
// useLiveRevalidation, relayed from the Business API's live stream. Signed out or with
// the API unavailable it answers 204, which tells EventSource to stop retrying.
import { requireUserSession } from "~/lib/auth.server";
import { createApiClient } from "~/lib/api.server";
import { endpoints } from "#contract/endpoints";
import type { Route } from "./+types/live";

export async function loader({ request, context }: Route.LoaderArgs) {
  const signedIn = await requireUserSession(request, context).catch(() => null);
  if (!signedIn) return new Response(null, { status: 204 });
  const { user, headers } = signedIn;
  const api = createApiClient(context, user.idToken);
  const upstream = await api.request(endpoints.liveStream, { headers: { Accept: "text/event-stream" }, signal: request.signal }).catch(() => undefined);
  if (!upstream?.ok || !upstream.body || !upstream.headers.get("content-type")?.includes("text/event-stream")) {
    await upstream?.body?.cancel().catch(() => {});
    return new Response(null, { status: 204 });
  }
  headers.set("Content-Type", "text/event-stream; charset=utf-8");
  // no-transform: compression must not buffer the stream.
  headers.set("Cache-Control", "no-store, no-transform");
  headers.set("X-Accel-Buffering", "no");
  return new Response(upstream.body, { headers });
}
