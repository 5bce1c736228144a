// ANY /api/v1/<unknown> – the JSON 404 envelope instead of Next's HTML page (more specific routes win)
import { apiV1Route } from '@/lib/http/api-v1-route';
import { unknownApiV1Path } from '@/lib/http/api-v1-error';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
const handler = apiV1Route(unknownApiV1Path, { access: 'public' });
export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE };
