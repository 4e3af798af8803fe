import pino, { type DestinationStream } from "pino";

/** Keys whose values never reach a log line, at any of the first three levels of a logged object. */
export const SECRET_KEYS = [
  "password",
  "newPassword",
  "currentPassword",
  "ocppPassword",
  "idToken",
  "refreshToken",
  "accessToken",
  "token",
  "apiKey",
  "secret",
  "oobCode",
  "authorization",
  "Authorization",
  "cookie",
  "Cookie",
  "set-cookie",
  "Set-Cookie",
  "credentials",
  "sealed",
];

function redactPaths(): string[] {
  const paths: string[] = [];
  for (const key of SECRET_KEYS) {
    const k = /^[A-Za-z_$][\w$]*$/.test(key) ? key : `["${key}"]`;
    const join = (prefix: string) => (k.startsWith("[") ? `${prefix}${k}` : `${prefix}.${k}`);
    paths.push(k, join("*"), join("*.*"));
  }
  return paths;
}

// Structured JSON logs; secrets never reach them: tokens, passwords,
// cookies and credentials are replaced wherever they appear in the first three levels.
export function createLogger(level: string, destination?: DestinationStream) {
  return pino(
    {
      level,
      base: { service: "enchufa" },
      redact: { paths: redactPaths(), censor: "[redactado]" },
    },
    destination,
  );
}
export type Logger = ReturnType<typeof createLogger>;
