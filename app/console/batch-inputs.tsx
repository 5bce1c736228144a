'use client';
/** The batch tool's inputs: pasted lines, or a file with its delimiter, header and text column. */
import { DELIMITER_NAMES, DELIMITERS, type Delimiter } from '@/lib/batch/read-batch-file';
import type { BatchSourceState } from './use-batch-source';
import styles from './console.module.css';

export function BatchInputs({ s, running }: { s: BatchSourceState; running: boolean }) {
  const { file, sourceRows, columns } = s;
  const unreadable = sourceRows.filter((r) => r.error).length;
  return (
    <div className={styles.batchInputs}>
      <div className="field">
        <label htmlFor="batch-text">Texts, one per line</label>
        <textarea
          id="batch-text"
          data-testid="batch-input"
          rows={6}
          value={s.pasted}
          disabled={!!file || running}
          onChange={(e) => s.setPasted(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor="batch-file">…or upload a CSV or TXT file</label>
        <input
          ref={s.fileInput}
          id="batch-file"
          data-testid="batch-file"
          type="file"
          accept=".csv,.tsv,.txt,text/csv,text/tab-separated-values,text/plain"
          disabled={running}
          onChange={(e) => void s.onFile(e.target.files?.[0])}
          aria-describedby="batch-file-hint"
        />
        <span id="batch-file-hint" className="hint">
          CSV (UTF-8; comma, semicolon or tab): choose the column to moderate; every column comes back in the export. TXT: one text per
          line.
        </span>
        {file && (
          <div data-testid="batch-file-info" className={styles.fileInfo}>
            <span data-testid="batch-file-count">
              {file.name}: {sourceRows.length} row{sourceRows.length === 1 ? '' : 's'}
              {unreadable > 0 && (
                <span data-testid="batch-unreadable" data-count={unreadable}>
                  {' '}
                  ({unreadable} unreadable, reported as errors)
                </span>
              )}
            </span>
            {file.source.kind === 'csv' && (
              <>
                <span className="field">
                  <label htmlFor="batch-delimiter">Separator</label>
                  <select
                    id="batch-delimiter"
                    data-testid="batch-delimiter"
                    value={file.source.delimiter}
                    disabled={running}
                    onChange={(e) => s.setDelimiter(e.target.value as Delimiter)}
                  >
                    {DELIMITERS.map((d) => (
                      <option key={d} value={d}>
                        {DELIMITER_NAMES[d]}
                      </option>
                    ))}
                  </select>
                </span>
                <label className={styles.inlineCheck}>
                  <input
                    type="checkbox"
                    data-testid="batch-has-header"
                    checked={file.source.hasHeader}
                    disabled={running}
                    onChange={(e) => s.setHeader(e.target.checked)}
                  />
                  First row is a header
                </label>
                <span className={`field ${styles.columnField}`}>
                  <label htmlFor="batch-column">Column to moderate</label>
                  <select
                    id="batch-column"
                    data-testid="batch-column"
                    value={s.column}
                    disabled={running}
                    onChange={(e) => s.setColumn(Number(e.target.value))}
                  >
                    {columns.map((c, j) => {
                      const sample = sourceRows.find((r) => !r.error)?.cells[j];
                      return (
                        // biome-ignore lint/suspicious/noArrayIndexKey: the column number is the option's value, its identity; names may repeat.
                        <option key={j} value={j}>
                          {c}
                          {sample ? ` (e.g. “${sample.slice(0, 30)}”)` : ''}
                        </option>
                      );
                    })}
                  </select>
                </span>
              </>
            )}
            <button type="button" className="secondary" disabled={running} onClick={s.clearFile}>
              Clear file
            </button>
          </div>
        )}
      </div>
    </div>
  );
}
