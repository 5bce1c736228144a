/**
 * The camera refused, missing or unsupported: Chromium's fake camera always grants, so these tests
 * replace navigator.mediaDevices.getUserMedia before the page loads. /register and /recognize must
 * show the documented help text (CAMERA_HELP) and the upload fallback must work. A last test holds
 * getUserMedia pending, leaves the page, then grants: the late stream must be stopped, not leaked.
 * Nothing here registers anyone (people.spec.ts relies on an empty database).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { CAMERA_HELP, type CameraFailure } from '@/lib/browser/camera';
import { PeoplePage, RecognizePage } from './pages/people.page';
import { RegisterPage } from './pages/register.page';
import { keepScreenshot, unlabelledControls } from './support/page-errors';
import { REPO_ROOT } from './support/paths';

const faces = path.resolve(REPO_ROOT, process.env.VIGIL_DATA_DIR ?? '../shared/data', 'faces');
const photo = (rel: string) => ({ name: path.basename(rel), mimeType: 'image/jpeg', buffer: readFileSync(path.join(faces, rel)) });

/** getUserMedia rejects with a DOMException named `errorName`; null: no navigator.mediaDevices at all. */
async function refuseCamera(page: Page, errorName: string | null): Promise<void> {
  await page.addInitScript((name) => {
    if (name === null) {
      Object.defineProperty(Navigator.prototype, 'mediaDevices', { get: () => undefined, configurable: true });
      return;
    }
    const calls: string[] = [];
    (window as unknown as { __gumCalls: string[] }).__gumCalls = calls;
    navigator.mediaDevices.getUserMedia = () => {
      calls.push(name);
      return Promise.reject(new DOMException('refused by the e2e test', name));
    };
  }, errorName);
}

/** The camera notice offers the upload once, not once in the camera's help and again from the page. */
async function expectUploadOfferedOnce(page: Page) {
  const text = (await page.getByTestId('camera-error-text').textContent()) ?? '';
  expect(text.match(/upload/gi) ?? []).toHaveLength(1);
}

const REGISTER_CASES: [string, CameraFailure][] = [
  ['NotAllowedError', 'denied'],
  ['NotFoundError', 'not-found'],
];

for (const [errorName, reason] of REGISTER_CASES) {
  test(`/register with the camera ${reason} (${errorName}) explains it and registers from uploads`, async ({ page }, testInfo) => {
    await refuseCamera(page, errorName);
    const r = new RegisterPage(page);
    await r.goto();
    const notice = page.getByTestId('camera-error');
    await expect(page.getByTestId('camera-error-text')).toHaveText(`${CAMERA_HELP[reason]} Use the photo upload below.`);
    await expectUploadOfferedOnce(page);
    await expect(notice).toHaveAttribute('data-reason', reason);
    expect(await page.evaluate(() => (window as unknown as { __gumCalls: string[] }).__gumCalls)).toEqual([errorName]);

    // No preview, no guidance, no capture button: only the upload.
    await expect(page.getByTestId('camera-video')).toBeHidden();
    await expect(r.capture).toHaveCount(0);
    await expect(r.checks).toHaveCount(0);
    await expect(page.getByTestId('guide-status')).toHaveCount(0);
    const upload = page.getByLabel('Upload photos (JPEG or PNG)', { exact: true });
    await expect(upload).toBeVisible();
    await expect(upload).toHaveAttribute('data-testid', 'photo-upload');

    // The fallback takes photos up to a registrable form (not submitted: the database stays empty).
    await upload.setInputFiles([photo('misc/obama2.jpg'), photo('test/obama1.jpg'), photo('misc/obama.jpg')]);
    await expect(r.photos).toHaveCount(3);
    await expect(r.submit).toBeDisabled();
    await r.name.fill('Fallback E2E');
    await expect(r.submit).toBeEnabled();
    await expect(r.submit).toHaveText('Register with 3 photos');

    await keepScreenshot(page, testInfo, `register-camera-${reason}`);
    expect(await unlabelledControls(page)).toEqual([]);
    expect(r.errors.errors).toEqual([]);
  });
}

test('/recognize with the camera denied explains it and recognizes an uploaded photo', async ({ page }, testInfo) => {
  await refuseCamera(page, 'NotAllowedError');
  const rc = new RecognizePage(page);
  await rc.goto();
  const notice = page.getByTestId('camera-error');
  await expect(page.getByTestId('camera-error-text')).toHaveText(`${CAMERA_HELP.denied} You can upload a photo instead.`);
  await expectUploadOfferedOnce(page);
  await expect(notice).toHaveAttribute('data-reason', 'denied');
  await expect(page.getByTestId('camera-video')).toBeHidden();
  await expect(rc.now).toHaveCount(0);
  await expect(page.getByTestId('recognize-auto')).toHaveCount(0);

  await page.getByLabel('Recognize an uploaded photo (JPEG or PNG)').setInputFiles(photo('test/obama1.jpg'));
  await expect(rc.results).not.toHaveAttribute('data-count', '-1', { timeout: 60_000 });
  await expect(rc.faces).toHaveCount(1);
  await expect(page.getByRole('img', { name: 'Uploaded for recognition' })).toBeVisible();

  await keepScreenshot(page, testInfo, 'recognize-camera-denied');
  expect(await unlabelledControls(page)).toEqual([]);
  expect(rc.errors.errors).toEqual([]);
});

test('/recognize in a browser without mediaDevices says why', async ({ page }) => {
  await refuseCamera(page, null);
  const rc = new RecognizePage(page);
  await rc.goto();
  await expect(page.getByTestId('camera-error-text')).toHaveText(`${CAMERA_HELP.unsupported} You can upload a photo instead.`);
  await expect(page.getByTestId('camera-error')).toHaveAttribute('data-reason', 'unsupported');
  await expect(page.getByTestId('recognize-upload')).toBeVisible();
  expect(rc.errors.errors).toEqual([]);
});

test('a camera granted after leaving /register is stopped, not leaked', async ({ page }) => {
  // getUserMedia waits for window.__grant(); every stream it hands out is kept to inspect.
  await page.addInitScript(() => {
    const w = window as unknown as { __grant?: () => void; __streams: MediaStream[]; __gumCalls: number };
    w.__streams = [];
    w.__gumCalls = 0;
    const real = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    let grant!: () => void;
    const granted = new Promise<void>((resolve) => (grant = resolve));
    w.__grant = grant;
    navigator.mediaDevices.getUserMedia = async (constraints) => {
      w.__gumCalls++;
      await granted;
      const stream = await real(constraints);
      w.__streams.push(stream);
      return stream;
    };
  });
  const r = new RegisterPage(page);
  await r.goto();
  await expect.poll(() => page.evaluate(() => (window as unknown as { __gumCalls: number }).__gumCalls)).toBeGreaterThan(0);
  await expect(page.getByTestId('guide-status')).toHaveText('Starting the camera…');

  // Client-side navigation: same window, the register page unmounts with getUserMedia pending.
  await page.getByTestId('nav-people').click();
  const people = new PeoplePage(page);
  await expect(people.count).toHaveAttribute('data-loaded', 'true');
  await expect(page.getByTestId('camera-video')).toHaveCount(0);

  const tracks = () =>
    page.evaluate(() =>
      (window as unknown as { __streams: MediaStream[] }).__streams.flatMap((s) => s.getTracks().map((t) => t.readyState)),
    );
  await page.evaluate(() => (window as unknown as { __grant: () => void }).__grant());
  // One stream (production renders once) with one video track, ended by useCamera's cleanup.
  await expect.poll(tracks).toEqual(['ended']);
  expect(r.errors.errors).toEqual([]);
  expect(people.errors.errors).toEqual([]);
});
