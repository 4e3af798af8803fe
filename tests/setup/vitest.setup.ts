// Shared setup for every vitest suite: the process time zone the product displays in,
// and a quiet, deterministic environment.
process.env.TZ = "America/Argentina/Buenos_Aires";
process.env.NODE_ENV = "test";
