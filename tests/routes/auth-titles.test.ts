// Every auth screen's title is `{title} - {product}`.
import { describe, expect, it } from "vitest";
import type { MetaFunction } from "react-router";
import * as login from "~/routes/auth/login";
import * as register from "~/routes/auth/register";
import * as emailSend from "~/routes/auth/email-send";
import * as confirmPassword from "~/routes/auth/confirm-password";
import * as resetPassword from "~/routes/auth/reset-password";
import * as terms from "~/routes/auth/terms-conditions";
import * as verifyEmail from "~/routes/auth/verify-email";
import * as loginCompany from "~/routes/auth/login-company";
import * as verifyCompany from "~/routes/auth/verify-company";

const screens: [string, { meta: MetaFunction }][] = [
  ["Ingresá", login],
  ["Creá tu cuenta", register],
  ["Correo enviado", emailSend],
  ["Confirmar contraseña", confirmPassword],
  ["Reestablecer contraseña", resetPassword],
  ["Términos y condiciones", terms],
  ["Verificar email", verifyEmail],
  ["Ingresá tu empresa", loginCompany],
  ["Verificación pendiente", verifyCompany],
];

describe("auth screen titles", () => {
  // The spec's title is the pending state's; the other states say what is true.
  it.each([
    ["PENDING", "Verificación pendiente"],
    ["REJECTED", "Empresa no aprobada"],
    ["SUSPENDED", "Cuenta suspendida"],
  ])("verify-company when %s: %s", (status, title) => {
    const matches = [{ id: "root", loaderData: { appName: "Enchufá" } }] as unknown as Parameters<MetaFunction>[0]["matches"];
    expect(verifyCompany.meta({ matches, loaderData: { status } } as unknown as Parameters<MetaFunction>[0])).toEqual([{ title: `${title} - Enchufá` }]);
  });

  it.each(screens)("%s", (title, mod) => {
    const matches = [{ id: "root", data: { appName: "Enchufá" } }] as unknown as Parameters<MetaFunction>[0]["matches"];
    expect(mod.meta({ matches } as Parameters<MetaFunction>[0])).toEqual([{ title: `${title} - Enchufá` }]);
  });
});
