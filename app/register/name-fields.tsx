'use client';
/** The person's name (required) and relationship. */
import type { RefObject } from 'react';

interface NameFieldsProps {
  name: string;
  onName: (v: string) => void;
  relationship: string;
  onRelationship: (v: string) => void;
  /** Focused again after "Register someone else". */
  nameRef: RefObject<HTMLInputElement | null>;
}

export function NameFields({ name, onName, relationship, onRelationship, nameRef }: NameFieldsProps) {
  return (
    <>
      <div className="field">
        <label htmlFor="person-name">Name</label>
        <input
          id="person-name"
          ref={nameRef}
          data-testid="person-name"
          required
          maxLength={200}
          value={name}
          onChange={(e) => onName(e.target.value)}
          autoComplete="off"
        />
      </div>
      <div className="field">
        <label htmlFor="person-relationship">Relationship</label>
        <input
          id="person-relationship"
          data-testid="person-relationship"
          maxLength={100}
          value={relationship}
          placeholder="e.g. daughter, neighbour, carer"
          onChange={(e) => onRelationship(e.target.value)}
        />
      </div>
    </>
  );
}
