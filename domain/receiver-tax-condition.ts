// A voucher receiver's condition before VAT, as a customer who gives a CUIT declares it. Its own
// module so the labels' pages do not bundle the invoice rules.
export const RECEIVER_TAX_CONDITIONS = ["RESPONSABLE_INSCRIPTO", "MONOTRIBUTO", "EXENTO", "CONSUMIDOR_FINAL"] as const;
export type ReceiverTaxCondition = (typeof RECEIVER_TAX_CONDITIONS)[number];
