// drizzle-kit: `npm run db:generate` writes SQL migrations from db/schema.ts into db/migrations,
// which db/client.ts applies at start on PGlite and PostgreSQL alike.
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema.ts",
  out: "./db/migrations",
  strict: true,
  verbose: true,
});
