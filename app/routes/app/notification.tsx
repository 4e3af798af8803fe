import { data, redirect, Form, Link, useNavigation } from "react-router";
import { Badge, Button, Card, Flex, Text } from "@radix-ui/themes";
import { BiBell, BiCheck, BiCheckDouble, BiChip, BiCreditCard, BiError, BiInfoCircle, BiMoney, BiTimeFive, BiWifiOff, type IconType } from "~/icons";
import type { NotificationDto } from "#contract/dto";
import { UUID_RE } from "#contract/schemas/constants";
import { EmptyState, PageHeader } from "~/components/Page";
import { InfoMessage } from "~/components/messages";
import { Pagination, listParams } from "~/components/list";
import { createApiClient, UNREACHABLE_PROBLEM } from "~/lib/api.server";
import { endpoints } from "#contract/endpoints";
import { UNAVAILABLE } from "~/components/activity/labels";
import { formatDateTime, formatInt } from "~/components/charts/format";
import { requireActiveBusiness, requireUser, safeRedirect } from "~/lib/auth.server";
import { visibleLink } from "~/lib/access.server";
import { dataWithError, dataWithSuccess } from "~/lib/toast.server";
import { pageMeta } from "~/lib/meta";
import { useAccess } from "~/lib/access";
// Web push: the browser's registration record and the permission button.
import { EnablePushButton } from "~/push/EnablePushButton";
import { PUSH_INTENT, pushRegisterAction } from "~/push/register.server";
import type { Route } from "./+types/notification";

export const meta = pageMeta("Notificaciones");

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const { user, business } = await requireActiveBusiness(request, context);
  const { page } = listParams(url);
  const unreadOnly = url.searchParams.get("unread") === "1";
  const query = new URLSearchParams({ page: String(page), pageSize: "20" });
  if (unreadOnly) query.set("unread", "1");
  const res = await createApiClient(context, user.idToken).call(endpoints.notificationList, { query });
  if (!res.ok) return data({ items: [] as NotificationDto[], total: 0, page, pageSize: 20, unread: 0, unreadOnly, error: UNAVAILABLE });
  // A link to a screen the role cannot open is not offered.
  const items = res.data.items.map((n) => ({ ...n, link: visibleLink(business.role, n.link) }));
  return data({ ...res.data, items, unreadOnly, error: null as string | null });
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  // Web push: the browser's registration record, stored through the API; no toast (it happens unasked).
  if (intent === PUSH_INTENT) return pushRegisterAction(context, user.idToken, form);
  const api = createApiClient(context, user.idToken);
  let send: () => Promise<{ ok: boolean; status: number; problem?: { type?: string } }>;
  let success: string;
  if (intent === "readAll") {
    send = () => api.call(endpoints.notificationReadAll);
    success = "Marcamos todas las notificaciones como leídas.";
  } else if (intent === "read") {
    const id = String(form.get("id") ?? "");
    if (!UUID_RE.test(id)) return dataWithError(context, { ok: false }, "No encontramos esa notificación.", { status: 404 });
    send = () => api.call(endpoints.notificationRead, { params: { id } });
    success = "Notificación marcada como leída.";
  } else {
    return dataWithError(context, { ok: false }, "No entendimos qué querías hacer. Probá de nuevo.", { status: 400 });
  }
  const result = await send();
  if (!result.ok) {
    if (result.status === 404) return dataWithError(context, { ok: false }, "No encontramos esa notificación.", { status: 404 });
    // Never reached the API: try again later; any other refusal: try again now.
    if (result.problem?.type === UNREACHABLE_PROBLEM && result.status === 503) {
      return dataWithError(context, { ok: false }, "No pudimos actualizar las notificaciones. Probá de nuevo en unos minutos.", { status: 503 });
    }
    return dataWithError(context, { ok: false }, "No pudimos actualizar las notificaciones. Probá de nuevo.", { status: 502 });
  }
  // Following the notification's link marks it read and goes there.
  const goTo = form.get("goTo");
  if (intent === "read" && typeof goTo === "string" && goTo) {
    return redirect(safeRedirect(goTo, "/notification"));
  }
  return dataWithSuccess(context, { ok: true }, success);
}

const TYPE_ICONS: Record<string, IconType> = {
  CHARGER_FAULTED: BiError,
  CHARGER_OFFLINE: BiWifiOff,
  SESSION_COMPLETED: BiChip,
  PAYMENT_RECEIVED: BiMoney,
  PAYMENT_FAILED: BiCreditCard,
  PAYMENT_REFUNDED: BiMoney,
  PAYMENT_REFUND_PENDING: BiMoney,
  PAYMENT_UNUSED_REFUNDED: BiMoney,
  PAYMENT_REFUNDED_OUTSIDE: BiMoney,
  PAYMENT_DISPUTED: BiError,
  PAYMENT_CHARGED_BACK: BiError,
  PAYMENT_DISPUTE_WON: BiCheck,
  PAYMENT_RECONCILIATION: BiMoney,
  FISCAL_CERTIFICATE_EXPIRING: BiTimeFive,
  FISCAL_CERTIFICATE_EXPIRED: BiError,
  IDLE_FEE_APPLIED: BiTimeFive,
  BUSINESS_APPROVED: BiCheck,
};

export default function Notifications({ loaderData }: Route.ComponentProps) {
  const d = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  // Lectura reads the notifications without marking them (the marks are the company's).
  const { can } = useAccess();
  const canMark = can("notification.write");
  return (
    <>
      <PageHeader
        title="Notificaciones"
        description={d.unread ? `Tenés ${formatInt(d.unread)} ${d.unread === 1 ? "notificación sin leer" : "notificaciones sin leer"}.` : "Estás al día: no tenés notificaciones sin leer."}
        actions={
          d.unread && canMark ? (
            <Form method="post">
              <input type="hidden" name="intent" value="readAll" />
              <Button type="submit" size="3" variant="soft" disabled={busy}>
                <BiCheckDouble aria-hidden="true" /> Marcar todas como leídas
              </Button>
            </Form>
          ) : null
        }
      />
      <nav aria-label="Filtrar notificaciones" className="period-presets" style={{ marginBottom: 16 }}>
        <Link to="/notification" className="period-chip" aria-current={!d.unreadOnly ? "page" : undefined}>
          Todas
        </Link>
        <Link to="/notification?unread=1" className="period-chip" aria-current={d.unreadOnly ? "page" : undefined}>
          Sin leer{d.unread ? ` (${formatInt(d.unread)})` : ""}
        </Link>
      </nav>
      {/* Web push: asks for permission from this click; nothing without JS or without the config. */}
      <EnablePushButton />
      {d.error ? (
        <InfoMessage color="red">{d.error}</InfoMessage>
      ) : d.items.length === 0 ? (
        <EmptyState icon={<BiBell size={48} />} title={d.unreadOnly ? "No tenés notificaciones sin leer" : "Todavía no tenés notificaciones"}>
          Te avisamos acá cuando un cargador quede sin conexión o en falla, cuando termine una carga y cuando se acredite o rechace un pago.
        </EmptyState>
      ) : (
        <>
          <ul className="notification-list" aria-label="Notificaciones, de la más nueva a la más antigua">
            {d.items.map((n) => (
              <NotificationItem key={n.id} n={n} busy={busy} canMark={canMark} />
            ))}
          </ul>
          <Pagination page={d.page} pageSize={d.pageSize} total={d.total} />
        </>
      )}
    </>
  );
}

function NotificationItem({ n, busy, canMark }: { n: NotificationDto; busy: boolean; canMark: boolean }) {
  const unread = !n.readAt;
  const Icon = TYPE_ICONS[n.type] ?? BiInfoCircle;
  const internalLink = n.link; // in-app and openable by the role, or null (the loader decides)
  return (
    <li data-testid="notification" data-unread={unread ? "true" : "false"} data-id={n.id}>
      <Card size="2" className={`notification${unread ? " notification-unread" : ""}`}>
        <Flex gap="3" align="start">
          <span className={`notification-icon notification-${n.type.toLowerCase()}`} aria-hidden="true">
            <Icon size={22} />
          </span>
          <Flex direction="column" gap="1" flexGrow="1" minWidth="0">
            <Flex gap="2" align="center" wrap="wrap">
              <Text weight={unread ? "bold" : "medium"} size="3">
                {n.title}
              </Text>
              {unread ? (
                <Badge color="sky" data-testid="notification-unread">
                  Nueva
                </Badge>
              ) : (
                <span className="visually-hidden">Leída</span>
              )}
            </Flex>
            <Text size="2">{n.body}</Text>
            <Text size="1" color="gray">
              <time dateTime={n.createdAt}>{formatDateTime(n.createdAt)}</time>
            </Text>
          </Flex>
          <Flex direction="column" gap="2" align="end" className="notification-actions">
            {internalLink ? (
              unread && canMark ? (
                <Form method="post">
                  <input type="hidden" name="intent" value="read" />
                  <input type="hidden" name="id" value={n.id} />
                  <input type="hidden" name="goTo" value={internalLink} />
                  <Button type="submit" size="2" variant="ghost" disabled={busy}>
                    Ver
                  </Button>
                </Form>
              ) : (
                <Button asChild size="2" variant="ghost">
                  <Link to={internalLink}>Ver</Link>
                </Button>
              )
            ) : null}
            {unread && canMark ? (
              <Form method="post">
                <input type="hidden" name="intent" value="read" />
                <input type="hidden" name="id" value={n.id} />
                <Button type="submit" size="2" variant="soft" disabled={busy} aria-label={`Marcar como leída: ${n.title}`}>
                  <BiCheck aria-hidden="true" /> Marcar como leída
                </Button>
              </Form>
            ) : null}
          </Flex>
        </Flex>
      </Card>
    </li>
  );
}
