import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

// The route tree: the app layout with its screens, the auth layout
// at /auth with its nine children, the 404 page and a catch-all that redirects to it.
export default [
  index("routes/index.tsx"),
  layout("routes/app/layout.tsx", [
    route("home", "routes/app/home.tsx"),
    route("station", "routes/app/station/index.tsx"),
    route("station/new", "routes/app/station/new.tsx"),
    route("station/edit/:id", "routes/app/station/edit.tsx"),
    route("charger", "routes/app/charger/index.tsx"),
    route("charger/new", "routes/app/charger/new.tsx"),
    route("charger/edit/:id", "routes/app/charger/edit.tsx"),
    route("charger/edit/:id/maintenance", "routes/app/charger/maintenance.tsx"),
    route("charger/edit/:id/messages", "routes/app/charger/messages.tsx"),
    route("charger/add", "routes/app/charger/add.tsx"),
    route("activity", "routes/app/activity.tsx"),
    route("rate", "routes/app/rate/index.tsx"),
    route("rate/new", "routes/app/rate/new.tsx"),
    route("rate/reprice", "routes/app/rate/reprice.tsx"),
    route("rate/holidays", "routes/app/rate/holidays.tsx"),
    route("rate/edit/:id", "routes/app/rate/edit.tsx"),
    // RFID tags and access groups.
    route("tag", "routes/app/tag/index.tsx"),
    route("tag/new", "routes/app/tag/new.tsx"),
    route("tag/edit/:id", "routes/app/tag/edit.tsx"),
    route("tag/import", "routes/app/tag/import.tsx"),
    route("group", "routes/app/group/index.tsx"),
    route("group/new", "routes/app/group/new.tsx"),
    route("group/edit/:id", "routes/app/group/edit.tsx"),
    // Reservations.
    route("reservation", "routes/app/reservation/index.tsx"),
    route("reservation/new", "routes/app/reservation/new.tsx"),
    route("notification", "routes/app/notification.tsx"),
    route("user", "routes/app/user.tsx"),
    route("payment", "routes/app/payment/index.tsx"),
    // One screen for both providers: /payment/payments/mercadoPago and /payment/payments/pagos360.
    route("payment/payments/:provider", "routes/app/payment/provider.tsx"),
    // Every payment of a period against the provider's own record.
    route("payment/reconciliation", "routes/app/payment/reconciliation.tsx"),
    // The electronic vouchers (ARCA) of the sales: Comprobantes.
    route("payment/invoice", "routes/app/payment/invoice.tsx"),
    // One voucher; a monthly invoice with the sessions it covers.
    route("payment/invoice/:id", "routes/app/payment/invoice-detail.tsx"),
    // The team and the audit log.
    route("team", "routes/app/team.tsx"),
    route("audit", "routes/app/audit.tsx"),
    // OCPI roaming partners and the stations offered to them.
    route("roaming", "routes/app/roaming.tsx"),
    // Electronic invoices: the company's fiscal settings for ARCA.
    route("fiscal", "routes/app/fiscal.tsx"),
  ]),
  route("auth", "routes/auth/layout.tsx", [
    index("routes/auth/index.tsx"),
    route("login", "routes/auth/login.tsx"),
    route("register", "routes/auth/register.tsx"),
    route("email-send", "routes/auth/email-send.tsx"),
    route("confirm-password", "routes/auth/confirm-password.tsx"),
    route("reset-password", "routes/auth/reset-password.tsx"),
    route("terms-conditions", "routes/auth/terms-conditions.tsx"),
    route("verify-email", "routes/auth/verify-email.tsx"),
    route("login-company", "routes/auth/login-company.tsx"),
    route("verify-company", "routes/auth/verify-company.tsx"),
    // An invitation link.
    route("invitation", "routes/auth/invitation.tsx"),
  ]),
  // Drivers pay at the charger — public, no sign-in (the status page before the QR page:
  // a static segment wins, so a charger cannot be called "pago").
  route("cargar", "routes/cargar/index.tsx"),
  route("cargar/pago/:paymentId", "routes/cargar/payment.tsx"),
  route("cargar/pago/:paymentId/factura", "routes/cargar/invoice-pdf.ts"),
  route("cargar/:identity/:connector", "routes/cargar/connector.tsx"),
  // A connector's QR (SVG) and the printable sheets of QR stickers (no JavaScript).
  route("charger/qr/:id", "routes/app/charger/qr.ts"),
  route("charger/stickers/:id", "routes/app/charger/stickers.ts"),
  route("station/stickers/:id", "routes/app/station/stickers.ts"),
  route("activity/export.csv", "routes/app/activity-export.ts"),
  route("audit/export.csv", "routes/app/audit-export.ts"),
  route("payment/reconciliation/export.csv", "routes/app/payment/reconciliation-export.ts"),
  route("payment/invoice/export.csv", "routes/app/payment/invoice-export.ts"),
  route("payment/invoice/:id/pdf", "routes/app/payment/invoice-pdf.ts"),
  route("tag/export.csv", "routes/app/tag/export.ts"),
  // A charger's OCPP messages as CSV and its diagnostics files (downloads).
  route("charger/edit/:id/messages.csv", "routes/app/charger/messages-export.ts"),
  route("charger/edit/:id/diagnostics/:diagnosticsId", "routes/app/charger/diagnostics-file.ts"),
  route("company", "routes/company.ts"),
  route("live", "routes/live.ts"),
  route("logout", "routes/logout.tsx"),
  route("404", "routes/not-found.tsx"),
  route("*", "routes/catch-all.tsx"),
] satisfies RouteConfig;
