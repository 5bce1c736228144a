-- Rate-limit counters shared by every instance on one PostgreSQL/Neon database (scale-out,
-- docs/decisions/031-scale-out.md). The layout is the one rate-limiter-flexible's
-- RateLimiterPostgres reads and writes (key, points, expire in epoch ms); creating it here
-- rather than letting the library create it at run time keeps DDL in the migrations.
CREATE TABLE IF NOT EXISTS rate_limits (
  key varchar(255) PRIMARY KEY,
  points integer NOT NULL DEFAULT 0,
  expire bigint
);
