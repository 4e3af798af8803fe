// The header bell's accessible name carries the count as the badge shows it (WCAG 2.5.3, label in
// name: Lighthouse's label-content-name-mismatch flagged "1964" in the name against "99+" on screen).
import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { NotificationBell } from "~/routes/app/layout";

function bell(unread: number) {
  const router = createMemoryRouter([{ path: "/", element: <NotificationBell unread={unread} /> }]);
  const markup = renderToStaticMarkup(<RouterProvider router={router} />);
  const label = /aria-label="([^"]*)"/.exec(markup)?.[1];
  const badge = /data-testid="unread-badge"[^>]*>([^<]*)</.exec(markup)?.[1];
  return { label, badge };
}

describe("notification bell", () => {
  it.each([
    [1, "1", "Notificaciones: 1 sin leer"],
    [99, "99", "Notificaciones: 99 sin leer"],
    [100, "99+", "Notificaciones: 99+ sin leer"],
    [1964, "99+", "Notificaciones: 99+ sin leer"],
  ])("%i unread: the badge shows %s and the name contains it", (unread, shown, name) => {
    const { label, badge } = bell(unread);
    expect(badge).toBe(shown);
    expect(label).toBe(name);
    expect(label).toContain(badge);
  });

  it("no unread: no badge, and the name is just the link's purpose", () => {
    expect(bell(0)).toEqual({ label: "Notificaciones", badge: undefined });
  });
});
