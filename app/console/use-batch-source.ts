'use client';
/**
 * What the batch tool will moderate: pasted lines or an uploaded file (read by
 * lib/batch/read-batch-file.ts, the delimiter detected unless the user picks one), whether its
 * first row is a header, and which column holds the text.
 */
import { useRef, useState } from 'react';
import {
  BatchFileError,
  columnsOf,
  decodeText,
  defaultTextColumn,
  readBatchText,
  readLines,
  rowsOf,
  type BatchSource,
  type Delimiter,
} from '@/lib/batch/read-batch-file';

export interface BatchFile {
  name: string;
  type: string;
  /** The decoded text, kept to read again with another delimiter. */
  text: string;
  source: BatchSource;
}

export interface Problem {
  message: string;
  code?: string;
}

export function useBatchSource(onNewInput: () => void) {
  const [pasted, setPasted] = useState('');
  const [file, setFile] = useState<BatchFile | undefined>();
  const [column, setColumn] = useState(0);
  const [fileError, setFileError] = useState<Problem | undefined>();
  const fileInput = useRef<HTMLInputElement>(null);

  const source: BatchSource = file ? file.source : readLines(pasted);
  const columns = columnsOf(source);
  const sourceRows = rowsOf(source);

  function fail(err: unknown) {
    setFile(undefined);
    if (fileInput.current) fileInput.current.value = '';
    setFileError(
      err instanceof BatchFileError
        ? { message: err.message, code: err.code }
        : { message: `The file could not be read: ${(err as Error).message}` },
    );
  }

  function read(name: string, type: string, text: string, delimiter?: Delimiter) {
    const src = readBatchText(text, name, type, delimiter);
    setFile({ name, type, text, source: src });
    setColumn(defaultTextColumn(src));
  }

  async function onFile(f: File | undefined) {
    setFileError(undefined);
    onNewInput();
    if (!f) return setFile(undefined);
    try {
      read(f.name, f.type, decodeText(new Uint8Array(await f.arrayBuffer())));
    } catch (err) {
      fail(err);
    }
  }

  function setDelimiter(delimiter: Delimiter) {
    if (!file) return;
    try {
      read(file.name, file.type, file.text, delimiter);
    } catch (err) {
      fail(err);
    }
  }

  function setHeader(hasHeader: boolean) {
    if (!file) return;
    const next = { ...file.source, hasHeader };
    setFile({ ...file, source: next });
    setColumn(defaultTextColumn(next));
  }

  function clearFile() {
    setFile(undefined);
    if (fileInput.current) fileInput.current.value = '';
  }

  return {
    pasted,
    setPasted,
    source,
    file,
    column,
    setColumn,
    columns,
    sourceRows,
    fileError,
    setFileError,
    fileInput,
    onFile,
    setDelimiter,
    setHeader,
    clearFile,
  };
}

export type BatchSourceState = ReturnType<typeof useBatchSource>;
