// Production never talks to a payment emulator (issue 23): an http:// or local provider URL is refused at start.
import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "../../../server/env";

const prod = { NODE_ENV: "production", FIREBASE_PROJECT_ID: "p", FIREBASE_API_KEY: "k", SESSION_SECRET: "s".repeat(32), ENCRYPTION_KEY: "a".repeat(64) };

describe("payment provider URLs", () => {
  it("refuses an emulator URL in production, naming the variable", () => {
    for (const [key, value] of [
      ["MERCADOPAGO_API_URL", "http://127.0.0.1:4000/mercadopago"],
      ["PAGOS360_API_URL", "https://localhost:4000/pagos360"],
    ]) {
      let error: unknown;
      try {
        parseEnv({ ...prod, [key]: value });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(EnvError);
      expect((error as EnvError).message).toContain(`${key}: no se permite un emulador en producción`);
    }
  });
  it("takes the real APIs in production, and the emulator in local mode", () => {
    expect(parseEnv({ ...prod, MERCADOPAGO_API_URL: "https://api.mercadopago.com" }).MERCADOPAGO_API_URL).toBe("https://api.mercadopago.com");
    expect(parseEnv({ ...prod, ENCHUFA_LOCAL: "1", MERCADOPAGO_API_URL: "http://127.0.0.1:4000/mercadopago" }).MERCADOPAGO_API_URL).toBe("http://127.0.0.1:4000/mercadopago");
  });
});
