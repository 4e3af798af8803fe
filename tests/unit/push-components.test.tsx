// The push components render on the server too (the layout and Notificaciones are SSR'd):
// they must not touch browser-only code there, and render nothing without JavaScript.
import { describe, expect, it, vi } from "vitest";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { PushRegistration } from "~/push/PushRegistration";
import { EnablePushButton } from "~/push/EnablePushButton";

const firebase = { apiKey: "k", projectId: "p", authDomain: "p.firebaseapp.com", messagingSenderId: "1", appId: "1:1:web:1", vapidKey: "BVapid" };

function render(config: typeof firebase | null) {
  const router = createMemoryRouter(
    [
      {
        id: "root",
        path: "/",
        element: (
          <>
            <PushRegistration />
            <EnablePushButton />
            <p>contenido</p>
          </>
        ),
      },
    ],
    { hydrationData: { loaderData: { root: { firebase: config } } } },
  );
  return renderToString(<RouterProvider router={router} />);
}

describe("push components on the server", () => {
  it("render nothing (the button appears only after hydration, when the browser can ask)", () => {
    vi.spyOn(console, "error").mockImplementation(() => {}); // RouterProvider's useLayoutEffect SSR warning
    for (const config of [firebase, null]) {
      const html = render(config);
      expect(html).toContain("contenido");
      expect(html).not.toContain("Activar notificaciones");
    }
  });
});
