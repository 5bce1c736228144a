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
  ],
  // The model artifacts are read from disk at run time; make sure tracing ships them.
  outputFileTracingIncludes: { '/v1/**': ['./models/**/*'] },
};

export default nextConfig;
