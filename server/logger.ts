import pino from "pino";

// Structured JSON logs; secrets never reach them (DESIGN.md, issue 10).
export function createLogger(level: string) {
  return pino({
    level,
    base: { service: "enchufa" },
    redact: {
      paths: [
        "req.headers.authorization",
        "req.headers.cookie",
        "res.headers['set-cookie']",
        "*.password",
        "*.idToken",
        "*.refreshToken",
        "*.accessToken",
        "*.token",
        "*.apiKey",
      ],
      censor: "[redactado]",
    },
  });
}
export type Logger = ReturnType<typeof createLogger>;
