'use client';
/** A reason code picker: the server's codes (REVIEW_REASON_CODES), grouped by the decision they explain. */
import type { RefObject } from 'react';
import type { ReviewConfig } from '@/lib/contracts/review-console';

interface ReasonSelectProps {
  id: string;
  testId: string;
  value: string;
  onChange: (code: string) => void;
  config: ReviewConfig | undefined;
  /** Set when a decision was refused for want of a fitting reason (aria-invalid, message linked). */
  problem?: string;
  selectRef?: RefObject<HTMLSelectElement | null>;
  label?: string;
}

export function ReasonSelect({ id, testId, value, onChange, config, problem, selectRef, label = 'Reason' }: ReasonSelectProps) {
  const codes = config?.reason_codes ?? [];
  const group = (decision: 'confirm' | 'overturn') =>
    codes
      .filter((c) => c.decision === decision)
      .map((c) => (
        <option key={c.code} value={c.code}>
          {c.code}
        </option>
      ));
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        ref={selectRef}
        data-testid={testId}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
      >
        <option value="">Choose…</option>
        <optgroup label="Harmful (confirm)">{group('confirm')}</optgroup>
        <optgroup label="False positive (overturn)">{group('overturn')}</optgroup>
      </select>
      {problem && (
        <span id={`${id}-problem`} className="hint" data-testid={`${testId}-problem`} role="alert">
          {problem}
        </span>
      )}
    </div>
  );
}
