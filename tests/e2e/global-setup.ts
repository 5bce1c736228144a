/**
 * Makes the fake camera's video before Chromium starts: a y4m of one face photo from
 * `$VIGIL_DATA_DIR/faces` (default ../shared/data, never copied into the repository), cropped
 * around the face and letterboxed to 640x480, written to the ignored `.cache/e2e/`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { FAKE_CAMERA_Y4M, REPO_ROOT } from './support/paths';

/** The photo and the crop that centres its face (x:y:w:h in source pixels). */
const PHOTO = path.join('faces', 'misc', 'obama.jpg');
const CROP = '600:450:189:17';

export default function globalSetup(): void {
  const dataDir = path.resolve(REPO_ROOT, process.env.VIGIL_DATA_DIR ?? '../shared/data');
  const photo = path.join(dataDir, PHOTO);
  if (!existsSync(photo)) throw new Error(`fake camera: ${photo} not found (set VIGIL_DATA_DIR)`);
  if (existsSync(FAKE_CAMERA_Y4M) && statSync(FAKE_CAMERA_Y4M).mtimeMs > statSync(photo).mtimeMs) return;
  mkdirSync(path.dirname(FAKE_CAMERA_Y4M), { recursive: true });
  execFileSync(
    'ffmpeg',
    [
      '-v',
      'error',
      '-y',
      '-loop',
      '1',
      '-i',
      photo,
      '-t',
      '2',
      '-r',
      '10',
      '-vf',
      `crop=${CROP},scale=640:480:force_original_aspect_ratio=decrease,pad=640:480:(ow-iw)/2:(oh-ih)/2`,
      '-pix_fmt',
      'yuv420p',
      FAKE_CAMERA_Y4M,
    ],
    { stdio: 'inherit' },
  );
}
