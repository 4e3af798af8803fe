// Production refuses placeholder and guessable secrets: the example file's values, one character
// repeated, a short pattern repeated, too few different characters; it names the variable and
// says how to make a good one. Local mode and development keep accepting anything well-formed.
import { readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseEnv, EnvError } from "../../../server/env";

/** The values `.env.example` ships with. */
const example = Object.fromEntries(
  readFileSync(new URL("../../../.env.example", import.meta.url), "utf8")
    .split("\n")
    .filter((line) => /^[A-Z_]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
);

const strong = { SESSION_SECRET: randomBytes(32).toString("hex"), ENCRYPTION_KEY: randomBytes(32).toString("hex") };
const production = { NODE_ENV: "production", FIREBASE_PROJECT_ID: "p", FIREBASE_API_KEY: "k", ...strong };

function problems(env: Record<string, string>): string {
  try {
    parseEnv(env);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as EnvError).message;
  }
  return "";
}

describe("production secrets", () => {
  it("accepts random values (openssl rand -hex 32, base64, 32 hex characters) and rotated lists", () => {
    for (let i = 0; i < 200; i++) {
      expect(problems({ ...production, SESSION_SECRET: randomBytes(32).toString("hex"), ENCRYPTION_KEY: randomBytes(32).toString("hex") })).toBe("");
      expect(problems({ ...production, SESSION_SECRET: randomBytes(32).toString("base64") })).toBe("");
      expect(problems({ ...production, SESSION_SECRET: randomBytes(16).toString("hex") })).toBe("");
    }
    expect(problems({ ...production, SESSION_SECRET: `${randomBytes(32).toString("hex")},${randomBytes(32).toString("hex")}` })).toBe("");
  });

  it("refuses the example file's SESSION_SECRET and ENCRYPTION_KEY, naming each and how to generate one", () => {
    expect(example.SESSION_SECRET).toMatch(/^change-me/);
    const text = problems({ ...production, SESSION_SECRET: example.SESSION_SECRET, ENCRYPTION_KEY: example.ENCRYPTION_KEY });
    expect(text).toMatch(/SESSION_SECRET: .*openssl rand -hex 32/);
    expect(text).toMatch(/ENCRYPTION_KEY: .*openssl rand -hex 32/);
    // The secret itself is never repeated in the message.
    expect(text).not.toContain(example.SESSION_SECRET);
    expect(text).not.toContain(example.ENCRYPTION_KEY);
  });

  it.each([
    ["one character repeated", "s".repeat(40)],
    ["a pattern repeated", "abc123".repeat(8)],
    ["a placeholder", "please-replace-this-with-something-long-enough"],
    ["a word and a counter", "enchufa-enchufa-1234567890-1234567890-aaaa"],
    ["too few different characters", "abcabcabcabcabcabcabcabcabcabcabcabcabcd"],
    ["another placeholder", "my-secret-key-0123456789-qwertyuiopasdfghjkl"],
  ])("refuses a SESSION_SECRET that is %s", (_why, value) => {
    expect(problems({ ...production, SESSION_SECRET: value })).toMatch(/SESSION_SECRET: .*openssl rand -hex 32/);
  });

  it.each([
    ["all zeros", "0".repeat(64)],
    ["one character repeated", "a".repeat(64)],
    ["a pattern repeated", "0123456789abcdef".repeat(4)],
    ["two halves alike", "deadbeef".repeat(8)],
    ["too few different characters", "0101010101010101010101010101010101010101010101010101010101010102"],
  ])("refuses an ENCRYPTION_KEY that is %s", (_why, value) => {
    expect(problems({ ...production, ENCRYPTION_KEY: value })).toMatch(/ENCRYPTION_KEY: .*openssl rand -hex 32/);
  });

  it("checks every key of a rotation list, not only the first", () => {
    const text = problems({ ...production, ENCRYPTION_KEY: `${randomBytes(32).toString("hex")},${"0".repeat(64)}` });
    expect(text).toMatch(/ENCRYPTION_KEY: .*clave 2/);
    expect(problems({ ...production, SESSION_SECRET: `${randomBytes(32).toString("hex")},change-me-change-me-change-me-change-me` })).toMatch(/SESSION_SECRET: .*valor 2/);
  });

  it("leaves development and local mode alone", () => {
    expect(problems({ FIREBASE_PROJECT_ID: "p", SESSION_SECRET: "s".repeat(40), ENCRYPTION_KEY: "0".repeat(64) })).toBe("");
    expect(problems({ ...production, ENCHUFA_LOCAL: "1", SESSION_SECRET: "s".repeat(40), ENCRYPTION_KEY: "0".repeat(64) })).toBe("");
  });
});
