// What a notification shows a role that may not see money (domain/permissions.ts: payment.read).
// Notifications about payments and charged penalties are money news: those roles do not get
// them. The others (a session completed, a reservation's no-show) keep their facts without the
// amounts, and without a link to the screens those roles cannot open (Actividad, Pagos).
// Pure: used by the API's list and by the web push.

/** An amount as domain/money.ts writes it: "$ 1.234,56" (a no-break space after the sign). */
const AMOUNT = String.raw`\$\s?\d[\d.]*(?:,\d+)?`;

/** Notification types that only the roles that may see payments receive. */
export const MONEY_NOTIFICATION_TYPES = ["IDLE_FEE_APPLIED", "PAYMENT_RECEIVED", "PAYMENT_FAILED", "PAYMENT_REFUNDED", "PAYMENT_REFUND_PENDING", "PAYMENT_UNUSED_REFUNDED", "PAYMENT_DISPUTED", "PAYMENT_CHARGED_BACK", "PAYMENT_DISPUTE_WON", "PAYMENT_REFUNDED_OUTSIDE", "PAYMENT_ACCOUNT_ERROR", "PAYMENT_RECONCILIATION"] as const;

/** The text without its amounts: "…, total $ 12,00 (incluye $ 3,00 de penalidad por 5 min…)" → "… (incluye penalidad por 5 min…)". */
export function withoutAmounts(text: string): string {
  return text
    .replace(new RegExp(String.raw`,?\s*total\s+${AMOUNT}`, "g"), "")
    .replace(new RegExp(String.raw`\s*(?:Facturación|Cargo por no presentarse):\s*${AMOUNT}\.?`, "g"), "")
    .replace(new RegExp(String.raw`${AMOUNT}\s+de\s+`, "g"), "")
    .replace(new RegExp(AMOUNT, "g"), "un importe");
}

/** Links to screens about money (Actividad, Pagos). */
const MONEY_LINK = /^\/(activity|payment)(?=[/?]|$)/;

/**
 * The notification as a role sees it: as is with `money`; otherwise null for money news, else
 * without amounts nor a link to the money screens.
 */
export function notificationFor<T extends { type: string; title: string; body: string; link: string | null }>(n: T, money: boolean): T | null {
  if (money) return n;
  if ((MONEY_NOTIFICATION_TYPES as readonly string[]).includes(n.type)) return null;
  return { ...n, title: withoutAmounts(n.title), body: withoutAmounts(n.body), link: n.link && MONEY_LINK.test(n.link) ? null : n.link };
}
