// Warm the models and the database when the server starts, so the first request does not pay for them.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { env } = await import('@/lib/env');
  const e = env(); // fails fast on bad configuration
  const { textModeration } = await import('@/lib/composition/text-moderation-service');
  const { warmPersonService } = await import('@/lib/composition/person-service');
  const { registerShutdownHook } = await import('@/lib/composition/shutdown');
  registerShutdownHook();

  // The memory bank's database and models warm beside the moderation models; a failure there is
  // logged and retried on the next request, and never stops moderation from serving.
  const { logger } = await import('@/lib/observability/logger');
  const { errorForLog } = await import('@/lib/observability/redact');
  const faces = warmPersonService().catch((err: unknown) => {
    logger().error({ err: errorForLog(err) }, 'memory bank warm-up failed');
  });
  if (e.WARM_MODELS_ON_START) {
    const status = await textModeration().status();
    const models = status.map(({ version, loaded, error }) => ({ version, loaded, error }));
    logger()[status.every((s) => s.loaded) ? 'info' : 'warn']({ models }, 'models loaded');
  }
  // Bulk jobs resume on their own after a restart (a job's chunks wait in the database).
  const { jobService } = await import('@/lib/composition/job-service');
  const jobs = jobService().catch((err: unknown) => {
    logger().error({ err: errorForLog(err) }, 'bulk jobs did not start; retried on the next /v1/jobs request');
  });
  await faces;
  await jobs;
}
