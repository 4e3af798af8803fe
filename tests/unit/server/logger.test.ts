// Logs never carry secrets: tokens, passwords, cookies, credentials are redacted.
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../../server/logger";

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  return { logger: createLogger("info", stream), lines };
}

const SECRETS = ["hunter2-password", "eyJ.id.token", "refresh-abc", "APP_USR-access", "k-api-key", "enchufa_session=abc", "Bearer xyz", "ocpp-pass-123", "oob-123"];

describe("log redaction", () => {
  it("redacts secrets at the top level and nested two levels deep", () => {
    const { logger, lines } = capture();
    logger.info({ password: "hunter2-password", idToken: "eyJ.id.token" }, "top");
    logger.info({ req: { headers: { authorization: "Bearer xyz", cookie: "enchufa_session=abc" } } }, "request");
    logger.info({ res: { headers: { "set-cookie": "enchufa_session=abc" } } }, "response");
    logger.info({ body: { refreshToken: "refresh-abc", accessToken: "APP_USR-access", apiKey: "k-api-key", ocppPassword: "ocpp-pass-123", oobCode: "oob-123" } }, "nested");
    logger.info({ err: { config: { password: "hunter2-password" } } }, "deeper");
    const out = lines.join("\n");
    for (const secret of SECRETS) expect(out).not.toContain(secret);
    expect(out).toContain("[redactado]");
    // What is not secret stays.
    logger.info({ path: "/station", status: 200 }, "ok");
    expect(lines.at(-1)).toContain('"/station"');
  });
});
