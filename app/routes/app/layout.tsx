import { data, Form, Link, NavLink, Outlet, useLocation, useRouteLoaderData } from "react-router";
import { useEffect, type ReactNode } from "react";
import { Button, Text } from "@radix-ui/themes";
import { BiHomeAlt, BiMap, BiChip, BiLineChart, BiPurchaseTag, BiBell, BiCreditCard, BiUser, BiMenu, BiLogOut, BiSolidPlug, BiGroup, BiHistory, BiIdCard, BiShieldQuarter, BiTransfer, BiCalendar, type IconType } from "~/icons";
import { requireActiveBusiness } from "~/lib/auth.server";
import { canVisit, memberAccess } from "~/lib/access.server";
import { ROLE_LABELS } from "#domain/permissions";
import { CompanySwitcher } from "~/components/CompanySwitcher";
import { logUnexpected, RouteErrorMessage, RouteErrorPage, routeErrorCopy } from "~/components/RouteError";
import { PushRegistration } from "~/push/PushRegistration";
import { endpoints } from "#contract/endpoints";
import { createApiClient } from "~/lib/api.server";
import { appContext } from "~/lib/context";
import type { Route } from "./+types/layout";

const NAV: { to: string; label: string; icon: IconType }[] = [
  { to: "/home", label: "Inicio", icon: BiHomeAlt },
  { to: "/station", label: "Mis estaciones", icon: BiMap },
  { to: "/charger", label: "Mis cargadores", icon: BiChip },
  { to: "/activity", label: "Actividad", icon: BiLineChart },
  { to: "/rate", label: "Tarifas", icon: BiPurchaseTag },
  // Who may charge where.
  { to: "/tag", label: "Tarjetas RFID", icon: BiIdCard },
  { to: "/group", label: "Grupos de acceso", icon: BiShieldQuarter },
  { to: "/reservation", label: "Reservas", icon: BiCalendar },
  { to: "/notification", label: "Notificaciones", icon: BiBell },
  { to: "/payment", label: "Pagos", icon: BiCreditCard },
  // OCPI roaming.
  { to: "/roaming", label: "Roaming", icon: BiTransfer },
  { to: "/fiscal", label: "Facturación", icon: BiCreditCard },
  { to: "/user", label: "Mi perfil", icon: BiUser },
  // Only for the roles that may see them (app/lib/access.server.ts), like every entry.
  { to: "/team", label: "Equipo", icon: BiGroup },
  { to: "/audit", label: "Auditoría", icon: BiHistory },
];

export const BLANK_PHOTO = "/images/blank.png";

interface BusinessUserHeader {
  businessName?: string | null;
  photoUrl?: string | null;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  // The guard: session, token refresh (Set-Cookie below), verified e-mail, active company.
  const { user, business: account, headers } = await requireActiveBusiness(request, context);
  const role = account.role ?? null;
  const api = createApiClient(context, user.idToken);
  const [profile, unreadCount] = await Promise.all([
    api.call(endpoints.profileGet),
    // The bell's count is optional: even a refusal by the request limit leaves it at 0.
    api.call(endpoints.notificationUnreadCount).catch(() => undefined),
  ]);
  // The switcher lists the account's companies the dashboard can open (active ones).
  const companies = (account.companies ?? [])
    .filter((c) => c.status === "ACTIVE")
    .map(({ businessId, businessName, role: theirRole }) => ({ businessId, businessName, roleLabel: ROLE_LABELS[theirRole] }));
  const business: BusinessUserHeader | undefined = profile.ok ? profile.data : undefined;
  const unread = unreadCount?.ok ? (unreadCount.data.unread ?? 0) : 0;
  return data(
    {
      appName: appContext(context).config.appName,
      businessName: business?.businessName || user.displayName || user.email,
      photo: business?.photoUrl || user.photoUrl || BLANK_PHOTO,
      email: user.email,
      unread,
      access: memberAccess(role),
      // Only the entries the role may open (app/lib/access.server.ts), like every screen.
      nav: NAV.filter(({ to }) => canVisit(role, to)).map(({ to }) => to),
      businessId: account.businessId ?? null,
      companies,
    },
    { headers },
  );
}

/**
 * The header's bell. Its name carries the count exactly as the badge shows it ("99+" past 99), so
 * a voice-control user can say what they see (WCAG 2.5.3, label in name); Notificaciones has the
 * exact number.
 */
export function NotificationBell({ unread }: { unread: number }) {
  const shown = unread > 99 ? "99+" : String(unread);
  return (
    <Link to="/notification" className="topbar-bell" aria-label={unread ? `Notificaciones: ${shown} sin leer` : "Notificaciones"} data-testid="header-bell">
      <BiBell size={24} aria-hidden="true" />
      {unread ? (
        <span className="nav-badge" data-testid="unread-badge" aria-hidden="true">
          {shown}
        </span>
      ) : null}
    </Link>
  );
}

const DRAWER_QUERY = "(max-width: 900px)";

/**
 * The phone sidebar is a checkbox-driven drawer that works without JavaScript. With it, the drawer
 * behaves like a dialog: opening moves the focus to its first link, Tab and Shift+Tab stay inside
 * it (and its toggle), Escape closes it and gives the focus back to the toggle, and it closes when
 * a link navigates.
 */
function useNavDrawer() {
  const location = useLocation();
  useEffect(() => {
    const toggle = document.getElementById("nav-toggle") as HTMLInputElement | null;
    if (toggle) toggle.checked = false;
  }, [location.pathname, location.search]);

  useEffect(() => {
    const toggle = document.getElementById("nav-toggle") as HTMLInputElement | null;
    const nav = document.getElementById("app-nav");
    if (!toggle || !nav) return;
    const isOpen = () => toggle.checked && window.matchMedia(DRAWER_QUERY).matches;
    const focusables = () => Array.from(nav.querySelectorAll<HTMLElement>("a[href], button:not([disabled])"));
    const onChange = () => {
      if (isOpen()) focusables()[0]?.focus();
    };
    const onKey = (event: KeyboardEvent) => {
      if (!isOpen()) return;
      if (event.key === "Escape") {
        toggle.checked = false;
        toggle.focus();
        return;
      }
      if (event.key !== "Tab") return;
      const ring: HTMLElement[] = [toggle, ...focusables()];
      const at = ring.indexOf(document.activeElement as HTMLElement);
      const next = at === -1 ? 0 : (at + (event.shiftKey ? -1 : 1) + ring.length) % ring.length;
      event.preventDefault();
      ring[next].focus();
    };
    toggle.addEventListener("change", onChange);
    document.addEventListener("keydown", onKey);
    return () => {
      toggle.removeEventListener("change", onChange);
      document.removeEventListener("keydown", onKey);
    };
  }, []);
}

type ShellData = Route.ComponentProps["loaderData"];

/**
 * The signed-in frame: the sidebar with the entries the role may open, the header (company
 * switcher, bell, who is signed in, Salir) and the page in `main`.
 */
function AppShell({ shell, children }: { shell: ShellData; children: ReactNode }) {
  const { appName, businessName, photo, unread, access, businessId, companies } = shell;
  useNavDrawer();
  const nav = NAV.filter(({ to }) => shell.nav.includes(to));
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Saltar al contenido
      </a>
      {/* The sidebar collapses behind this checkbox on small screens: it works without JavaScript. */}
      <input type="checkbox" id="nav-toggle" className="shell-nav-toggle" aria-label="Mostrar u ocultar el menú" aria-controls="app-nav" />
      <label htmlFor="nav-toggle" className="scrim" aria-hidden="true" />
      <nav className="sidebar" id="app-nav" aria-label="Menú principal">
        <a href="/home" className="sidebar-brand">
          <BiSolidPlug size={28} aria-hidden="true" />
          <span>{appName}</span>
        </a>
        {nav.map(({ to, label, icon: Icon }) => (
          <NavLink key={to} to={to} className="nav-link" prefetch="intent">
            <Icon size={22} aria-hidden="true" />
            <span>{label}</span>
          </NavLink>
        ))}
      </nav>
      <div className="main-col">
        <header className="topbar">
          <label htmlFor="nav-toggle" className="menu-button" aria-hidden="true" title="Menú">
            <BiMenu size={24} />
          </label>
          <div className="topbar-spacer" />
          <CompanySwitcher companies={companies} current={businessId} />
          <NotificationBell unread={unread} />
          <div className="topbar-user">
            <img src={photo} alt="" width={36} height={36} data-testid="header-photo" />
            <div className="topbar-who">
              <Text className="topbar-name" weight="medium" data-testid="header-business-name">
                {businessName}
              </Text>
              {access.roleLabel ? (
                <span className="topbar-role" data-testid="header-role">
                  {access.roleLabel}
                </span>
              ) : null}
            </div>
          </div>
          <Form method="post" action="/logout">
            <Button type="submit" variant="ghost" size="2" color="gray">
              <BiLogOut aria-hidden="true" /> Salir
            </Button>
          </Form>
        </header>
        <main id="main" className="page" tabIndex={-1}>
          {children}
        </main>
        <PushRegistration />
      </div>
    </div>
  );
}

export default function AppLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AppShell shell={loaderData}>
      <Outlet />
    </AppShell>
  );
}

/**
 * A screen that cannot be shown (403, 404, 429, 503, or an unexpected error) says why inside the
 * app, so the navigation stays. When the frame itself could not load (the guard or the company
 * failed), the bare error page stands alone.
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const shell = useRouteLoaderData<typeof loader>("routes/app/layout");
  if (!shell) return <RouteErrorPage error={error} />;
  logUnexpected(error);
  return (
    <AppShell shell={shell}>
      <RouteErrorMessage copy={routeErrorCopy(error)} />
    </AppShell>
  );
}
