/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
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
  ],
  // Model artifacts and SQL migrations are read from disk at run time; make sure tracing ships them.
  outputFileTracingIncludes: {
    '/v1/**': ['./models/**/*'],
    '/models/**': ['./models/**/*'],
    '/ort/**': ['./node_modules/onnxruntime-web/dist/*.wasm', './node_modules/onnxruntime-web/dist/*.mjs'],
    '/api/v1/**': ['./lib/db/migrations/**/*'],
  },
};

export default nextConfig;
