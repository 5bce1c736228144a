/**
 * Webcam registration through Chromium's fake camera (a y4m of one face photo, global-setup.ts):
 * the live guidance passes, three captures register a person shown on /people, /recognize names
 * them, and deleting them removes them. Serial: each step needs the one before.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { PeoplePage, RecognizePage } from './pages/people.page';
import { RegisterPage } from './pages/register.page';
import { keepScreenshot, unlabelledControls } from './support/page-errors';
import { REPO_ROOT } from './support/paths';

const faces = path.resolve(REPO_ROOT, process.env.VIGIL_DATA_DIR ?? '../shared/data', 'faces');
const photo = (rel: string) => ({ name: path.basename(rel), mimeType: 'image/jpeg', buffer: readFileSync(path.join(faces, rel)) });

const NAME = 'Barack E2E';
const RELATIONSHIP = 'neighbour';

test.describe.configure({ mode: 'serial' });

test.describe('people through the webcam', () => {
  test('registering through the fake webcam creates a person shown on /people', async ({ page }, testInfo) => {
    const r = new RegisterPage(page);
    await r.goto();
    await r.waitUntilReady();
    console.log(`face guidance backend: ${await r.backend.textContent()}`);
    await keepScreenshot(page, testInfo, 'register-ready');
    expect(await unlabelledControls(page)).toEqual([]);
    await r.captureN(1);
    // The fake camera shows one still picture: a second capture adds nothing and is refused.
    await r.capture.click();
    await expect(r.fileErrors).toContainText('Not added: it is nearly the same as photo 1');
    await expect(r.photos).toHaveCount(1);
    await expect(page.getByTestId('register-more-advice')).toContainText('One photo is enough to register.');
    await r.name.fill(NAME);
    await r.relationship.fill('friend');
    await r.addDetail('favourite', 'tea');
    await r.submit.click();
    await expect(r.result).toContainText(`Registered ${NAME} (friend) with 1 photo.`, { timeout: 60_000 });
    await keepScreenshot(page, testInfo, 'register');
    expect(r.errors.errors).toEqual([]);

    const people = new PeoplePage(page);
    await people.goto();
    const card = people.person(NAME);
    await expect(card.getByTestId('person-relationship')).toHaveText('friend');
    await people.editRelationship(NAME, RELATIONSHIP);
    await expect(card.getByTestId('person-relationship')).toHaveText(RELATIONSHIP);
    await expect(card.getByTestId('photo-count')).toHaveText('1 photo');
    await expect(card).toContainText('tea');
    await keepScreenshot(page, testInfo, 'people');
    expect(await unlabelledControls(page)).toEqual([]);
    expect(people.errors.errors).toEqual([]);
  });

  test('/recognize names them', async ({ page }, testInfo) => {
    const rc = new RecognizePage(page);
    await rc.goto();
    await rc.recognizeNow();
    await expect(rc.faces.first()).toHaveAttribute('data-match', 'true');
    await expect(rc.faces.first()).toContainText(`${NAME} · ${RELATIONSHIP}`);
    await keepScreenshot(page, testInfo, 'recognize');
    expect(await unlabelledControls(page)).toEqual([]);
    expect(rc.errors.errors).toEqual([]);
  });

  test('deleting them removes them', async ({ page, request }, testInfo) => {
    const people = new PeoplePage(page);
    await people.goto();
    await people.delete(NAME);
    await expect(page.getByTestId('people-message')).toHaveText(`${NAME} was deleted.`);
    await keepScreenshot(page, testInfo, 'people-after-delete');
    await page.reload();
    await expect(people.count).toHaveAttribute('data-loaded', 'true');
    await expect(people.person(NAME)).toHaveCount(0);
    const list = (await (await request.get('/api/v1/persons?limit=100')).json()) as { data: { persons: { name: string }[] } };
    expect(list.data.persons.map((p) => p.name)).not.toContain(NAME);

    // And the stranger is now unknown to recognition.
    const rc = new RecognizePage(page);
    await rc.goto();
    await rc.recognizeNow();
    await expect(rc.faces.first()).toHaveAttribute('data-match', 'false');
    await expect(rc.faces.first()).toContainText('Unknown');
    expect(people.errors.errors).toEqual([]);
    expect(rc.errors.errors).toEqual([]);
  });

  test('the upload fallback registers from files and explains every refused photo', async ({ page, request }, testInfo) => {
    const r = new RegisterPage(page);
    await r.goto();

    // No face at all, or two people: refused in the browser before any upload, each with its reason.
    const blank = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 200, g: 200, b: 200 } } })
      .jpeg()
      .toBuffer();
    await r.uploadPhotos([{ name: 'blank.jpg', mimeType: 'image/jpeg', buffer: blank }, photo('test/kit_with_rose.jpg')]);
    await expect(r.photos).toHaveCount(0);
    await expect(r.fileErrors).toContainText('blank.jpg: Not added: it is a plain, single-colour image');
    await expect(r.fileErrors).toContainText('kit_with_rose.jpg: Not added: it shows 2 faces of similar size');

    // Three photos of one person register.
    await r.uploadPhotos([photo('misc/obama2.jpg'), photo('test/obama1.jpg'), photo('misc/obama3.jpg')]);
    await expect(r.photos).toHaveCount(3);
    await r.name.fill('Upload E2E');
    await r.relationship.fill('colleague');
    await r.submit.click();
    await expect(r.result).toContainText('Registered Upload E2E (colleague) with 3 photos', { timeout: 60_000 });
    await keepScreenshot(page, testInfo, 'register-upload');
    expect(r.errors.errors).toEqual([]);

    const id = await r.result.getAttribute('data-person-id');
    expect((await request.delete(`/api/v1/persons/${id}`)).ok()).toBe(true);
  });
});
