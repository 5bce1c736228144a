'use client';

/** One labelled filter `<select>` of the console (review queue and batch results). */
interface FilterSelectProps {
  id: string;
  testId: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly { value: string; label: string }[];
  /** Label of a first option with the empty value that turns the filter off; none when absent. */
  allLabel?: string;
}

export function FilterSelect({ id, testId, label, value, onChange, options, allLabel }: FilterSelectProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} data-testid={testId} value={value} onChange={(e) => onChange(e.target.value)}>
        {allLabel !== undefined && <option value="">{allLabel}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Options whose label is the value itself, or `label(value)`. */
export const optionsOf = (values: readonly string[], label: (v: string) => string = (v) => v) =>
  values.map((value) => ({ value, label: label(value) }));
