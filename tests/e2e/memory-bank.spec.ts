/**
 * The memory bank and its pages (/register, /people, /recognize),
 * in Chromium with the fake camera (a y4m of Obama, global-setup.ts). Each test sets up the
 * people it needs over the API and leaves the memory bank empty for the other specs.
 * axe-core runs on each main state; screenshots at 1440×900 and 390×844 go to the HTML report.
 */
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { PeoplePage, RecognizePage } from './pages/people.page';
import { RegisterPage } from './pages/register.page';
import { expectNoAxeViolations } from './support/axe';
import { keepScreenshotsAtWidths } from './support/page-errors';
import { deleteEveryone, facePhoto, registerByApi } from './support/memory-bank-api';

test.afterEach(async ({ request }) => {
  await deleteEveryone(request);
});

/** Chromium logs every 4xx answer as a failed resource: expected where the test provokes one. */
const expectedRefusals = /status of 409|HTTP 409 .*\/api\/v1\//;

/** SMPTE-like colour bars: a test pattern with plenty of contrast and no face. */
async function colourBars(): Promise<Buffer> {
  const colours = [
    [192, 192, 192],
    [192, 192, 0],
    [0, 192, 192],
    [0, 192, 0],
    [192, 0, 192],
    [192, 0, 0],
    [0, 0, 192],
  ];
  const w = 640;
  const h = 480;
  const raw = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) raw.set(colours[Math.floor((x * colours.length) / w)]!, (y * w + x) * 3);
  return sharp(raw, { raw: { width: w, height: h, channels: 3 } })
    .png()
    .toBuffer();
}

async function apiCalls(page: Page): Promise<string[]> {
  const calls: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/v1/')) calls.push(`${r.method()} ${new URL(r.url()).pathname}`);
  });
  return calls;
}

test.describe('memory bank integrity', () => {
  test('a stranger added to a person is refused in plain words, can be added on purpose, is listed as an outlier and can be removed', async ({
    page,
    request,
  }, testInfo) => {
    await registerByApi(request, 'Joe', ['train/biden/biden.jpg', 'train/biden/biden2.jpg'], 'colleague');
    const people = new PeoplePage(page);
    people.errors.ignore(expectedRefusals);
    await people.goto();
    const card = people.person('Joe');
    await card.getByTestId('add-photos').setInputFiles([facePhoto('train/rose_leslie/img1.jpg')]);
    const problems = card.getByTestId('photo-errors');
    await expect(problems).toContainText('img1.jpg: Not added: this face does not look like Joe.', { timeout: 60_000 });
    await expect(problems.getByTestId('error-details')).toContainText('FACE_MISMATCH');
    await expect(card.getByTestId('photo-count')).toHaveText('2 photos');

    // The operator insists: stored, then flagged in the listing and removed again.
    await card.getByTestId('add-anyway').click();
    await expect(card.getByTestId('photo-count')).toHaveText('3 photos', { timeout: 60_000 });
    const faces = await people.openFaces('Joe');
    await expect(faces).toHaveCount(3);
    await expect(faces.nth(2).getByTestId('face-outlier')).toContainText('Looks like someone else');
    await expect(faces.nth(0).getByTestId('face-outlier')).toHaveCount(0);
    await expect(faces.nth(0)).toContainText('Distance to the closest other face');
    await keepScreenshotsAtWidths(page, testInfo, 'people-faces-outlier');
    await expectNoAxeViolations(page, testInfo, 'people with faces open');

    await card.getByRole('button', { name: 'Remove face 3 of Joe' }).click();
    await card.getByTestId('confirm-remove-face').click();
    await expect(faces).toHaveCount(2);
    await expect(card.getByTestId('photo-count')).toHaveText('2 photos');
    await expect(card.getByTestId('faces-status')).toHaveText('Face 3 of Joe was removed.');
    await expect(card.getByTestId('faces-status')).toBeFocused();
    expect(people.errors.errors).toEqual([]);
  });

  test('registering with fewer usable photos than promised says so and how to add more', async ({ page }, testInfo) => {
    const r = new RegisterPage(page);
    r.errors.ignore(expectedRefusals);
    await r.goto();
    // Two photos of Obama and one of Biden: the third is refused by the server as another face.
    await r.uploadPhotos([facePhoto('misc/obama2.jpg'), facePhoto('test/obama1.jpg'), facePhoto('train/biden/biden.jpg')]);
    await expect(r.photos).toHaveCount(3, { timeout: 60_000 });
    await r.name.fill('Short E2E');
    await r.submit.click();
    await expect(r.result).toContainText('Registered Short E2E with 2 photos', { timeout: 60_000 });
    await expect(r.short).toContainText('With 2 photos, recognition may miss Short E2E: 3 or more');
    await expect(r.short.getByRole('link', { name: 'People page' })).toHaveAttribute('href', /\/people#person-/);
    await expect(r.photoFailures).toContainText('Photo 3 was not added: This photo does not look like the same person.');
    await expect(r.result).toBeInViewport();
    await keepScreenshotsAtWidths(page, testInfo, 'register-fewer-photos');
    await expectNoAxeViolations(page, testInfo, 'register with fewer photos');
    expect(r.errors.errors).toEqual([]);
  });

  test('one photo registers, with advice to add more; the same photo again is refused as nearly identical', async ({ page }) => {
    const r = new RegisterPage(page);
    await r.goto();
    await r.uploadPhotos([facePhoto('misc/obama2.jpg'), facePhoto('misc/obama2.jpg')]);
    await expect(r.photos).toHaveCount(1);
    await expect(r.fileErrors).toContainText('obama2.jpg: Not added: it is nearly the same as photo 1');
    await expect(page.getByTestId('register-more-advice')).toContainText('One photo is enough to register.');
    await r.name.fill('One Photo E2E');
    await expect(r.submit).toHaveText('Register with 1 photo');
    await r.submit.click();
    await expect(r.result).toContainText('Registered One Photo E2E with 1 photo.', { timeout: 60_000 });
    await expect(r.short).toContainText('With 1 photo, recognition may miss One Photo E2E');
    expect(r.errors.errors).toEqual([]);
  });

  test('after a successful registration the form is locked until "Register someone else"', async ({ page }) => {
    const r = new RegisterPage(page);
    await r.goto();
    await r.uploadPhotos([facePhoto('misc/obama2.jpg'), facePhoto('test/obama1.jpg'), facePhoto('misc/obama3.jpg')]);
    await expect(r.photos).toHaveCount(3, { timeout: 60_000 });
    await r.name.fill('Once E2E');
    await r.submit.click();
    await expect(r.result).toContainText('Registered Once E2E with 3 photos', { timeout: 60_000 });
    await expect(r.submit).toBeDisabled();
    await expect(r.name).toBeDisabled();
    await expect(r.error).toHaveCount(0);
    await expect(r.result).toBeFocused();
    await page.getByTestId('register-another').click();
    await expect(r.result).toHaveCount(0);
    await expect(r.name).toBeEnabled();
    await expect(r.name).toHaveValue('');
    await expect(r.name).toBeFocused();
    expect(r.errors.errors).toEqual([]);
  });

  test('a face already registered is named in plain words, in view, with "Add these photos to <name>"', async ({
    page,
    request,
  }, testInfo) => {
    await registerByApi(request, 'Barack', ['train/obama/obama.jpg']);
    await page.setViewportSize({ width: 1440, height: 900 });
    const r = new RegisterPage(page);
    r.errors.ignore(expectedRefusals);
    await r.goto();
    await r.uploadPhotos([facePhoto('misc/obama2.jpg'), facePhoto('test/obama1.jpg'), facePhoto('misc/obama3.jpg')]);
    await expect(r.photos).toHaveCount(3, { timeout: 60_000 });
    await r.name.fill('Barack again');
    await r.submit.click();
    await expect(r.error).toContainText('These photos look like Barack, who is already registered.', { timeout: 60_000 });
    await expect(r.error).toBeInViewport();
    await expect(r.addToExisting).toHaveText('Add these photos to Barack');
    await expect(r.addToExisting).toBeInViewport();
    // The developer text stays behind "Details", closed.
    const details = r.error.getByTestId('error-details');
    await expect(details).toContainText('FACE_ALREADY_REGISTERED');
    await expect(details.locator('code')).toBeHidden();
    await expect(r.error.locator('p').first()).not.toContainText('/api/v1');
    await keepScreenshotsAtWidths(page, testInfo, 'register-duplicate');
    await expectNoAxeViolations(page, testInfo, 'register duplicate message');

    await r.addToExisting.click();
    await expect(r.result).toContainText('Added 3 of 3 photos to Barack, who now has 4 photos.', { timeout: 60_000 });
    await expect(r.error).toHaveCount(0);
    expect(r.errors.errors).toEqual([]);
  });

  test('the browser refuses a non-image, a test pattern and a plain grey image before uploading, one reason per line', async ({
    page,
  }, testInfo) => {
    const r = new RegisterPage(page);
    await r.goto();
    const calls = await apiCalls(page);
    const grey = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 128, g: 128, b: 128 } } })
      .jpeg()
      .toBuffer();
    await r.uploadPhotos([
      { name: 'notes.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('These are my notes, not a photo.\n') },
      { name: 'bars.png', mimeType: 'image/png', buffer: await colourBars() },
      { name: 'grey.jpg', mimeType: 'image/jpeg', buffer: grey },
    ]);
    const lines = r.fileErrors.getByTestId('error-items').locator('> li');
    await expect(lines).toHaveCount(3, { timeout: 60_000 });
    await expect(r.photos).toHaveCount(0);
    await expect(lines.nth(0)).toContainText('notes.jpg: Not added: it is not a JPEG or PNG photo.');
    await expect(lines.nth(1)).toContainText('bars.png: Not added: no face was found in it');
    await expect(lines.nth(2)).toContainText('grey.jpg: Not added: it is a plain, single-colour image');
    expect(calls.filter((c) => !c.startsWith('GET /api/v1/session'))).toEqual([]);

    // A real photo still goes through.
    await r.uploadPhotos([facePhoto('misc/obama2.jpg')]);
    await expect(r.photos).toHaveCount(1, { timeout: 60_000 });
    await keepScreenshotsAtWidths(page, testInfo, 'register-file-errors');
    await expectNoAxeViolations(page, testInfo, 'register file errors');
    expect(r.errors.errors).toEqual([]);
  });
});

test.describe('layout and accessibility on /register and /recognize', () => {
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1366, height: 768 },
  ]) {
    test(`the Capture button is visible without scrolling at ${viewport.width}×${viewport.height}`, async ({ page }, testInfo) => {
      await page.setViewportSize(viewport);
      const r = new RegisterPage(page);
      await r.goto();
      await r.waitUntilReady();
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      await expect(r.capture).toBeInViewport({ ratio: 1 });
      await keepScreenshotsAtWidths(page, testInfo, `register-capture-${viewport.width}`);
      await expectNoAxeViolations(page, testInfo, `register ready ${viewport.width}`);
      expect(r.errors.errors).toEqual([]);
    });
  }

  test('on a phone the recognition result is scrolled into view', async ({ page, request }, testInfo) => {
    await registerByApi(request, 'Barack', ['train/obama/obama.jpg']);
    await page.setViewportSize({ width: 390, height: 844 });
    const rc = new RecognizePage(page);
    await rc.goto();
    // The fake camera shows Obama; "Recognize now" sits under the preview, the results further down.
    await rc.recognizeNow();
    await expect(rc.faces).toHaveCount(1);
    await expect(rc.faces.first()).toContainText('Barack');
    await expect(rc.faces.first()).toBeInViewport({ ratio: 1 });
    await keepScreenshotsAtWidths(page, testInfo, 'recognize-result');
    await expectNoAxeViolations(page, testInfo, 'recognize result');
    expect(rc.errors.errors).toEqual([]);
  });

  test('/recognize clears the last result when the next file is not an image', async ({ page }) => {
    const rc = new RecognizePage(page);
    await rc.goto();
    const upload = page.getByTestId('recognize-upload');
    await upload.setInputFiles({ name: 'bars.png', mimeType: 'image/png', buffer: await colourBars() });
    await expect(rc.results).toHaveAttribute('data-count', '0', { timeout: 60_000 });
    await expect(rc.results).toContainText('No face in view.');

    await upload.setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not a picture at all') });
    await expect(page.getByTestId('recognize-error')).toContainText('notes.png could not be opened as an image');
    await expect(rc.results).not.toContainText('No face in view.');
    await expect(rc.results).toHaveAttribute('data-count', '-1');
    await expect(page.getByRole('img', { name: 'Uploaded for recognition' })).toHaveCount(0);
    expect(rc.errors.errors).toEqual([]);
  });

  test('the face guidance says pass or fail in words, not by colour alone', async ({ page }) => {
    const r = new RegisterPage(page);
    await r.goto();
    await r.waitUntilReady();
    const checks = r.checks.locator('li');
    expect(await checks.count()).toBeGreaterThan(3);
    for (const text of await checks.allTextContents()) expect(text).toMatch(/^✓ Passed: |^✗ Not yet: /);
    expect(r.errors.errors).toEqual([]);
  });

  test('the "Real face" and "Live" checks say they are advisory: a photo held up to the camera can pass them', async ({ page }) => {
    const r = new RegisterPage(page);
    await r.goto();
    await r.waitUntilReady();
    const advisory = r.checks.locator('li[data-check="real"], li[data-check="live"]');
    expect(await advisory.count()).toBeGreaterThan(0);
    for (const text of await advisory.allTextContents()) expect(text).toContain('advisory only: a photo held up to the camera can pass it');
    expect(r.errors.errors).toEqual([]);
  });

  test('person buttons name the person; focus lands on the outcome of a delete, or back on Delete after Keep', async ({
    page,
    request,
  }, testInfo) => {
    await registerByApi(request, 'Joe', ['train/biden/biden.jpg']);
    await registerByApi(request, 'Rose', ['train/rose_leslie/img1.jpg']);
    const people = new PeoplePage(page);
    await people.goto();
    const joe = people.person('Joe');
    for (const name of ['Edit Joe', 'Add photos of Joe', 'Delete Joe'])
      await expect(joe.getByRole('button', { name, exact: true })).toBeVisible();
    await joe.getByRole('button', { name: 'Delete Joe' }).click();
    await joe.getByTestId('confirm-delete').click();
    await expect(joe).toHaveCount(0);
    await expect(page.getByTestId('people-message')).toBeFocused();
    await expectNoAxeViolations(page, testInfo, 'people after a delete');
    // Keep goes back to the Delete button that asked.
    const rose = people.person('Rose');
    await rose.getByRole('button', { name: 'Delete Rose' }).click();
    await rose.getByRole('button', { name: 'Keep Rose' }).click();
    await expect(rose.getByRole('button', { name: 'Delete Rose' })).toBeFocused();
    expect(people.errors.errors).toEqual([]);
  });

  for (const path of ['/register', '/recognize']) {
    test(`${path} with the camera denied offers "Try again", which asks again`, async ({ page }, testInfo) => {
      await page.addInitScript(() => {
        const w = window as unknown as { __gumCalls: number };
        w.__gumCalls = 0;
        const real = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
        navigator.mediaDevices.getUserMedia = (c) =>
          ++w.__gumCalls === 1 ? Promise.reject(new DOMException('denied by the e2e test', 'NotAllowedError')) : real(c);
      });
      await page.goto(path);
      const retry = page.getByTestId('camera-retry');
      await expect(retry).toHaveText('Try again');
      await keepScreenshotsAtWidths(page, testInfo, `${path.slice(1)}-camera-denied`);
      await expectNoAxeViolations(page, testInfo, `${path} camera denied`);
      await retry.click();
      await expect(page.getByTestId('camera-error')).toHaveCount(0);
      await expect(page.getByTestId('camera-video')).toBeVisible();
      expect(await page.evaluate(() => (window as unknown as { __gumCalls: number }).__gumCalls)).toBe(2);
    });
  }

  test('labels on a group photo stay inside the image, apart, without nested brackets', async ({ page, request }, testInfo) => {
    await registerByApi(request, 'Barack Obama', ['train/obama/obama.jpg'], 'neighbour (old street)');
    await registerByApi(request, 'Joe Biden', ['train/biden/biden.jpg'], 'colleague (office)');
    const rc = new RecognizePage(page);
    await rc.goto();
    await page.getByTestId('recognize-upload').setInputFiles(facePhoto('test/obama_and_biden.jpg'));
    await expect(rc.faces).toHaveCount(3, { timeout: 60_000 });
    const { width, height, labels } = await rc.photoLabels();
    expect(labels).toHaveLength(3);
    for (const l of labels) {
      expect(l.x).toBeGreaterThanOrEqual(0);
      expect(l.y).toBeGreaterThanOrEqual(0);
      expect(l.x + l.width).toBeLessThanOrEqual(width);
      expect(l.y + l.height).toBeLessThanOrEqual(height);
      expect(l.text).not.toMatch(/\([^)]*\(/);
    }
    for (let i = 0; i < labels.length; i++)
      for (let j = i + 1; j < labels.length; j++) {
        const [a, b] = [labels[i]!, labels[j]!];
        const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
        expect(apart, `${a.text} and ${b.text} overlap`).toBe(true);
      }
    expect(labels.map((l) => l.text).sort()).toEqual([
      'Barack Obama · neighbour (old street)',
      'Joe Biden · colleague (office)',
      'Unknown',
    ]);
    await expect(rc.results).toContainText('Joe Biden · colleague (office)');
    await keepScreenshotsAtWidths(page, testInfo, 'recognize-group');
    expect(rc.errors.errors).toEqual([]);
  });
});
