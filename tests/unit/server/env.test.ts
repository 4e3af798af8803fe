import { describe, expect, it } from "vitest";
import { parseEnv, EnvError } from "../../../server/env";

const KEY = "49b7ef468a53217b4616715d8b5200b618915d8381462d85b5265909b730dde0";

describe("parseEnv", () => {
  it("applies the defaults of local development", () => {
    const env = parseEnv({ FIREBASE_PROJECT_ID: "demo-enchufa" });
    expect(env.PORT).toBe(3000);
    expect(env.APP_NAME).toBe("Enchufá");
    expect(env.DATA_DIR).toBe(".data");
    expect(env.HOST).toBe("127.0.0.1");
  });

  it("lets APP_NAME and PORT be overridden", () => {
    const env = parseEnv({ FIREBASE_PROJECT_ID: "p", APP_NAME: "Cargá", PORT: "8080" });
    expect(env.APP_NAME).toBe("Cargá");
    expect(env.PORT).toBe(8080);
  });

  it("names every missing production secret", () => {
    try {
      parseEnv({ NODE_ENV: "production", FIREBASE_PROJECT_ID: "p" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(EnvError);
      const text = (error as EnvError).message;
      expect(text).toContain("SESSION_SECRET");
      expect(text).toContain("ENCRYPTION_KEY");
      expect(text).toContain("FIREBASE_API_KEY");
    }
  });

  it("bounds live streams and stored images: documented defaults, overridable, nonsense refused", () => {
    const env = parseEnv({ FIREBASE_PROJECT_ID: "p" });
    expect([env.LIVE_STREAMS_PER_ACCOUNT, env.LIVE_STREAMS_PER_IP]).toEqual([10, 50]);
    expect([env.IMAGES_PER_COMPANY, env.IMAGES_MB_PER_COMPANY, env.UNREFERENCED_IMAGE_HOURS]).toEqual([200, 100, 24]);
    expect(parseEnv({ FIREBASE_PROJECT_ID: "p", LIVE_STREAMS_PER_ACCOUNT: "3", IMAGES_PER_COMPANY: "500", UNREFERENCED_IMAGE_HOURS: "48" })).toMatchObject({
      LIVE_STREAMS_PER_ACCOUNT: 3,
      IMAGES_PER_COMPANY: 500,
      UNREFERENCED_IMAGE_HOURS: 48,
    });
    expect(() => parseEnv({ FIREBASE_PROJECT_ID: "p", LIVE_STREAMS_PER_IP: "0" })).toThrow(/LIVE_STREAMS_PER_IP/);
    expect(() => parseEnv({ FIREBASE_PROJECT_ID: "p", IMAGES_MB_PER_COMPANY: "mucho" })).toThrow(/IMAGES_MB_PER_COMPANY/);
    expect(() => parseEnv({ FIREBASE_PROJECT_ID: "p", UNREFERENCED_IMAGE_HOURS: "0" })).toThrow(/UNREFERENCED_IMAGE_HOURS/);
  });

  it("names a bad value", () => {
    expect(() => parseEnv({ FIREBASE_PROJECT_ID: "p", PORT: "http" })).toThrow(/PORT/);
    expect(() => parseEnv({ FIREBASE_PROJECT_ID: "p", DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
    expect(() => parseEnv({ FIREBASE_PROJECT_ID: "p", ENCRYPTION_KEY: "short" })).toThrow(/ENCRYPTION_KEY/);
    expect(() => parseEnv({})).toThrow(/FIREBASE_PROJECT_ID/);
  });

  const production = {
    NODE_ENV: "production",
    FIREBASE_PROJECT_ID: "p",
    FIREBASE_API_KEY: "k",
    SESSION_SECRET: "47f6b6c79e8d6f63958b73b18afa3052a5e3e5df3e5383cf25c475dd639891ee",
    ENCRYPTION_KEY: `${KEY},4f9b83b65be9740cfb4cd7dc73dfd43f2c046e703aac4331124b6f0763af9605`,
  };

  it("binds to every interface in production and accepts rotated keys", () => {
    const env = parseEnv(production);
    expect(env.HOST).toBe("0.0.0.0");
    expect(env.ENCRYPTION_KEY).toHaveLength(2);
  });

  it("sign-in throttling: defaults, overrides, and a bad value named", () => {
    const env = parseEnv({ FIREBASE_PROJECT_ID: "p" });
    expect(env.LOGIN_FAILURES_PER_ACCOUNT_ADDRESS).toBe(5);
    expect(env.LOGIN_FAILURES_PER_ADDRESS).toBe(30);
    expect(parseEnv({ FIREBASE_PROJECT_ID: "p", LOGIN_FAILURES_PER_ACCOUNT_ADDRESS: "3" }).LOGIN_FAILURES_PER_ACCOUNT_ADDRESS).toBe(3);
    expect(() => parseEnv({ FIREBASE_PROJECT_ID: "p", LOGIN_FAILURES_PER_ADDRESS: "0" })).toThrow(/LOGIN_FAILURES_PER_ADDRESS/);
  });

  it("refuses the identity emulator in production", () => {
    expect(() => parseEnv({ ...production, FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099" })).toThrow(/FIREBASE_AUTH_EMULATOR_HOST/);
  });

  it("allows the emulator only for local mode bound to loopback", () => {
    const local = { ...production, FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099", ENCHUFA_LOCAL: "1" };
    expect(parseEnv(local).HOST).toBe("127.0.0.1");
    expect(() => parseEnv({ ...local, HOST: "0.0.0.0" })).toThrow(/FIREBASE_AUTH_EMULATOR_HOST/);
  });
});
