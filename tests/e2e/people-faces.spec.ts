/**
 * The People page's search, the confirmation before a face or a person is removed, and the face
 * thumbnails: a placeholder on the default server (no photos stored), the photo itself on a second
 * server started with STORE_FACE_IMAGES=true. axe-core runs on each new state.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startServer, type RunningServer } from '../../scripts/lib/server';
import { PeoplePage } from './pages/people.page';
import { expectNoAxeViolations } from './support/axe';
import { deleteEveryone, facePhoto, registerByApi } from './support/memory-bank-api';
import { keepScreenshot } from './support/page-errors';

test.describe('people page: search and confirmations', () => {
  test.afterEach(async ({ request }) => {
    await deleteEveryone(request);
  });

  test('the search keeps only the people whose name matches, and says when nobody does', async ({ page, request }, testInfo) => {
    await registerByApi(request, 'Joe Biden', ['train/biden/biden.jpg']);
    await registerByApi(request, 'Rose Leslie', ['train/rose_leslie/img1.jpg']);
    const people = new PeoplePage(page);
    await people.goto();
    const cards = page.getByTestId('person');
    await expect(cards).toHaveCount(2);

    const search = page.getByRole('searchbox', { name: 'Search by name' });
    await search.fill('ROS');
    await expect(cards).toHaveCount(1);
    await expect(people.person('Rose Leslie')).toBeVisible();
    await expect(people.count).toHaveText('2 people registered. 1 match “ROS”.');
    await expectNoAxeViolations(page, testInfo, 'people filtered by a search');

    await search.fill('biden jo');
    await expect(cards).toHaveCount(1);
    await expect(people.person('Joe Biden')).toBeVisible();

    await search.fill('nobody');
    await expect(cards).toHaveCount(0);
    await expect(page.getByTestId('people-no-match')).toContainText("Nobody's name matches “nobody”.");
    await keepScreenshot(page, testInfo, 'people-search-no-match');
    await expectNoAxeViolations(page, testInfo, 'people search without a match');
    await page.getByRole('button', { name: 'Clear the search' }).click();
    await expect(cards).toHaveCount(2);
    await expect(search).toHaveValue('');
    expect(people.errors.errors).toEqual([]);
  });

  test('removing a face asks first: Keep changes nothing, Remove takes it away; no photo stored shows a placeholder', async ({
    page,
    request,
  }, testInfo) => {
    const id = await registerByApi(request, 'Joe', ['train/biden/biden.jpg', 'train/biden/biden2.jpg']);
    const people = new PeoplePage(page);
    await people.goto();
    const card = people.person('Joe');
    const faces = await people.openFaces('Joe');
    await expect(faces).toHaveCount(2);
    // The default server keeps no photos: a placeholder, and no request for an image.
    await expect(card.getByTestId('face-placeholder')).toHaveCount(2);
    await expect(card.getByTestId('face-placeholder').first()).toHaveText('No photo stored');
    await expect(card.getByTestId('face-thumbnail')).toHaveCount(0);

    const removeSecond = card.getByRole('button', { name: 'Remove face 2 of Joe' });
    await removeSecond.click();
    const dialog = card.getByRole('alertdialog');
    await expect(dialog).toContainText('Remove face 2 of Joe? Its descriptor is erased; this cannot be undone.');
    await expect(card.getByTestId('keep-face')).toBeFocused();
    await keepScreenshot(page, testInfo, 'people-remove-face-confirm');
    await expectNoAxeViolations(page, testInfo, 'people asking to confirm a face removal');

    await card.getByRole('button', { name: 'Keep face 2 of Joe' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(removeSecond).toBeFocused();
    await expect(faces).toHaveCount(2);
    const listed = (await (await request.get(`/api/v1/persons/${id}/faces`)).json()) as { data: { faces: unknown[] } };
    expect(listed.data.faces).toHaveLength(2);

    await removeSecond.click();
    await card.getByTestId('confirm-remove-face').click();
    await expect(faces).toHaveCount(1);
    await expect(card.getByTestId('photo-count')).toHaveText('1 photo');
    await expect(card.getByTestId('faces-status')).toHaveText('Face 2 of Joe was removed.');
    await expect(card.getByTestId('faces-status')).toBeFocused();

    // Deleting the person asks too; Keep leaves them.
    await card.getByRole('button', { name: 'Delete Joe' }).click();
    await expect(card.getByRole('alertdialog')).toContainText('Delete Joe and all 1 face descriptor? This cannot be undone.');
    await card.getByRole('button', { name: 'Keep Joe' }).click();
    await expect(card.getByRole('alertdialog')).toHaveCount(0);
    expect((await request.get(`/api/v1/persons/${id}`)).status()).toBe(200);
    expect(people.errors.errors).toEqual([]);
  });
});

test.describe('people page with STORE_FACE_IMAGES=true', () => {
  let server: RunningServer;
  let dataDir: string;

  test.beforeAll(async () => {
    test.setTimeout(150_000);
    dataDir = mkdtempSync(path.join(tmpdir(), 'vigil-e2e-images-'));
    server = await startServer({
      STORE_FACE_IMAGES: 'true',
      DATA_DIR: dataDir,
      RATE_LIMIT_PER_MINUTE: '0',
      FACE_RATE_LIMIT_PER_MINUTE: '0',
    });
  });
  test.afterAll(async () => {
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test('each stored face shows its photo, served privately and never cached', async ({ page, request }, testInfo) => {
    const res = await request.post(`${server.url}/api/v1/register`, {
      multipart: { name: 'Rose', relationship: 'friend', image: facePhoto('train/rose_leslie/img1.jpg') },
      timeout: 120_000,
    });
    expect(res.status(), await res.text()).toBe(200);
    const id = ((await res.json()) as { data: { person_id: string } }).data.person_id;
    const list = (await (await request.get(`${server.url}/api/v1/persons/${id}/faces`)).json()) as {
      data: { faces: { face_id: string; photo_stored: boolean }[] };
    };
    expect(list.data.faces.map((f) => f.photo_stored)).toEqual([true]);
    const image = await request.get(`${server.url}/api/v1/persons/${id}/faces/${list.data.faces[0]!.face_id}/image`);
    expect(image.status()).toBe(200);
    expect(image.headers()['content-type']).toBe('image/jpeg');
    expect(image.headers()['cache-control']).toBe('private, no-store');
    expect((await image.body()).equals(facePhoto('train/rose_leslie/img1.jpg').buffer)).toBe(true);

    const people = new PeoplePage(page);
    await page.goto(`${server.url}/people`);
    await expect(people.count).toHaveAttribute('data-loaded', 'true');
    const faces = await people.openFaces('Rose');
    await expect(faces).toHaveCount(1);
    const thumb = faces.first().getByTestId('face-thumbnail');
    await expect(thumb).toHaveAttribute('alt', 'Face 1 of Rose');
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await expect(faces.first().getByTestId('face-placeholder')).toHaveCount(0);
    await keepScreenshot(page, testInfo, 'people-face-thumbnail');
    await expectNoAxeViolations(page, testInfo, 'people with face thumbnails');
    expect(people.errors.errors).toEqual([]);
  });
});
