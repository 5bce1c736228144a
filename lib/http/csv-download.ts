/**
 * A CSV download streamed from an async sequence of row chunks (the audit log's export, the
 * decided items' export). The first chunk is read before answering, so a database that is down
 * answers the error envelope rather than a broken download; a client that goes away stops the
 * sequence.
 */
export async function csvDownload<T>(
  chunks: AsyncGenerator<T, unknown, undefined>,
  header: string,
  rows: (chunk: T) => string,
  filePrefix: string,
): Promise<Response> {
  const first = await chunks.next();
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(header + (first.done ? '' : rows(first.value as T))));
      if (first.done) controller.close();
    },
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(rows(next.value as T)));
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    status: 200,
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${filePrefix}-${day}.csv"`,
    },
  });
}
