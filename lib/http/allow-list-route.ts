/**
 * The one route factory for files handed to the browser from disk (`/human/…`, `/models/…`,
 * `/ort/…`). A request path either equals a key of the route's allow-list or is answered 404, so
 * `..`, encoded separators or any other file next to an allowed one can never be reached; the
 * file itself goes through `serveStaticFile` (streamed, ETag, 304, cache headers).
 */
import 'server-only';
import { notFound, serveStaticFile } from './serve-static-file';

/** URL path below the route (segments joined with `/`) -> absolute file on disk. */
type AllowList = ReadonlyMap<string, string>;

type Params = Record<string, string | string[] | undefined>;

/**
 * `GET` for a route whose dynamic segment is `param` (`[...path]` or `[file]`). `allowList` is
 * called per request, so routes whose files come from the env see its current values.
 */
export function allowListRoute(param: string, allowList: () => AllowList) {
  return async function serveAllowed(request: Request, { params }: { params: Promise<Params> }): Promise<Response> {
    const value = (await params)[param];
    const key = Array.isArray(value) ? value.join('/') : value;
    const file = key === undefined ? undefined : allowList().get(key);
    return file === undefined ? notFound() : serveStaticFile(request, file);
  };
}
