// Warm the models when the server starts, so the first request does not pay for loading them.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { env } = await import('@/lib/env');
  const e = env(); // fails fast on bad configuration
  if (!e.WARM_MODELS_ON_START) return;
  const { services } = await import('@/lib/server/services');
  await services().registry.load();
  const status = services().registry.status();
  console.log(
    JSON.stringify({
      level: status.every((s) => s.loaded) ? 'info' : 'warn',
      msg: 'models loaded',
      models: status.map(({ version, loaded, error }) => ({ version, loaded, error })),
    }),
  );
}
