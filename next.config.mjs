// Security headers on every answer (pages, API, static files). What each allowance is for:
// docs/decisions/030-auth-and-observability.md.
const dev = process.env.NODE_ENV === 'development';
const contentSecurityPolicy = [
  "default-src 'self'",
  // Next's hydration scripts are inline (no per-request nonce on statically rendered pages);
  // 'wasm-unsafe-eval' lets onnxruntime-web and tfjs compile their wasm, and nothing else; dev
  // mode's React Refresh needs eval.
  `script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'${dev ? " 'unsafe-eval'" : ''}`,
  "style-src 'self' 'unsafe-inline'",
  // Photo previews and captured frames are blob: or data: URLs.
  "img-src 'self' data: blob:",
  "media-src 'self' blob: mediastream:",
  "font-src 'self' data:",
  // Model files, wasm and the APIs are all same-origin; blob:/data: for in-memory model buffers.
  "connect-src 'self' blob: data:",
  // The moderation Worker is a same-origin module script; libraries may spawn blob: workers.
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

// The camera for this origin only (/register, /recognize); every other powerful feature off.
const permissionsPolicy = [
  'camera=(self)',
  'microphone=()',
  'geolocation=()',
  'payment=()',
  'usb=()',
  'serial=()',
  'hid=()',
  'midi=()',
  'accelerometer=()',
  'gyroscope=()',
  'magnetometer=()',
  'display-capture=()',
  'screen-wake-lock=()',
  'xr-spatial-tracking=()',
  'publickey-credentials-get=()',
  'idle-detection=()',
].join(', ');

const securityHeaders = [
  { key: 'Content-Security-Policy', value: contentSecurityPolicy },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'Permissions-Policy', value: permissionsPolicy },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  async headers() {
    return [{ source: '/:path*', headers: securityHeaders }];
  },
  // Native and wasm ML packages are loaded by Node at run time, never bundled.
  serverExternalPackages: [
    'onnxruntime-node',
    '@huggingface/transformers',
    'sharp',
    '@electric-sql/pglite',
    '@vladmandic/human',
    '@vladmandic/face-api',
    '@tensorflow/tfjs',
    '@tensorflow/tfjs-backend-wasm',
    '@electric-sql/pglite-pgvector',
    'pg',
    '@neondatabase/serverless',
    // One copy per process, loaded by Node (the registry and logger are also kept on globalThis).
    'pino',
    // Starts the inference worker threads from a bundle built outside Next (scripts/build-workers.mjs).
    'piscina',
    'prom-client',
  ],
  // Model artifacts and SQL migrations are read from disk at run time; make sure tracing ships them.
  outputFileTracingIncludes: {
    '/v1/**': ['./models/**/*'],
    '/models/**': ['./models/**/*'],
    '/ort/**': [
      './node_modules/onnxruntime-web/dist/ort-wasm-simd-threaded.*',
      './node_modules/@huggingface/transformers/dist/transformers.min.js',
    ],
    '/api/v1/**': ['./lib/db/migrations/**/*'],
  },
};

export default nextConfig;
