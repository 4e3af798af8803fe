// When the operator hears that their ARCA certificate expires: once when it enters its last
// CERTIFICATE_WARNING_DAYS, once more when it has expired. A new certificate starts over (the
// settings clear the mark of the warning sent). Pure: the sweep applies it.

/** The certificate is warned about this long before it expires (screen and notification). */
export const CERTIFICATE_WARNING_DAYS = 30;

export type CertificateWarning = "EXPIRING" | "EXPIRED";

/**
 * The warning due now, given the certificate's expiry and when the last warning went out (null:
 * none for this certificate); null when nothing is due.
 */
export function certificateWarningDue(expiresAt: Date, warnedAt: Date | null, now: Date): CertificateWarning | null {
  if (expiresAt.getTime() <= now.getTime()) return warnedAt && warnedAt.getTime() >= expiresAt.getTime() ? null : "EXPIRED";
  if (expiresAt.getTime() - now.getTime() <= CERTIFICATE_WARNING_DAYS * 86_400_000) return warnedAt ? null : "EXPIRING";
  return null;
}
