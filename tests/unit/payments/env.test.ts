// Production never talks to a payment emulator: an http:// or local provider URL is refused at start.
import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "../../../server/env";

const prod = { NODE_ENV: "production", FIREBASE_PROJECT_ID: "p", FIREBASE_API_KEY: "k", SESSION_SECRET: "47f6b6c79e8d6f63958b73b18afa3052a5e3e5df3e5383cf25c475dd639891ee", ENCRYPTION_KEY: "49b7ef468a53217b4616715d8b5200b618915d8381462d85b5265909b730dde0" };

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
