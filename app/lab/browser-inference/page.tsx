// /lab/browser-inference – moderation in a Web Worker (onnxruntime-web, WebGPU or wasm)
import type { Metadata } from 'next';
import { BrowserInferenceLab } from './browser-inference-lab';

export const metadata: Metadata = {
  title: 'Browser inference',
  // No favicon exists yet; an empty data URL stops the browser requesting /favicon.ico (a 404
  // that Chromium reports as a console error).
  icons: { icon: 'data:,' },
};

export default function BrowserInferencePage() {
  return <BrowserInferenceLab />;
}
