/**
 * package.json's `engines.node` says which Node versions run this project, its tests and tools
 * (docs/decisions/189-supported-node-versions.md). It must admit no version an installed package
 * refuses (it said >=20.9 while htmlparser2, entities and Vite need 20.19), and be no stricter than
 * they are.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { declaredEngines, lowestVersions, satisfies } from '../../scripts/node-engines.mjs';

const range: string = JSON.parse(readFileSync('package.json', 'utf8')).engines.node;
const installed = declaredEngines();

/** `name@version ("range") refuses v` for each installed package that refuses one of `versions`. */
const refusals = (versions: string[]) =>
  installed.flatMap((p) => versions.filter((v) => !satisfies(v, p.node)).map((v) => `${p.name}@${p.version} ("${p.node}") refuses ${v}`));

describe('engines.node', () => {
  it('reads the ranges packages declare as semver does', () => {
    expect(satisfies('20.19.0', '^20.19.0 || >=22.12.0')).toBe(true);
    expect(satisfies('22.11.9', '^20.19.0 || >=22.12.0')).toBe(false);
    expect(satisfies('22.12.0', '^20.12||^22.13||>=24.0')).toBe(false);
    expect(satisfies('23.1.0', '^20.0.0 || ^22.0.0 || >=24.0.0')).toBe(false);
    expect(satisfies('12.0.0', '6.* || 8.* || >= 10.*')).toBe(true);
    expect(satisfies('7.0.0', '6.* || 8.* || >= 10.*')).toBe(false);
    expect(lowestVersions('^20.19.0 || ^22.13.0 || >=24')).toEqual(['20.19.0', '22.13.0', '24.0.0']);
  });

  it('admits no version an installed package refuses: the lowest of each of its ranges runs everything', () => {
    expect(installed.length).toBeGreaterThan(50);
    expect(refusals(lowestVersions(range))).toEqual([]);
  });

  it('is no stricter than the packages: 20.18, 22.12 and 23 are refused by one of them, and by engines.node', () => {
    for (const below of ['20.18.3', '22.12.0', '23.11.0']) {
      expect(satisfies(below, range), below).toBe(false);
      expect(refusals([below]), below).not.toEqual([]);
    }
    for (const supported of ['20.19.0', '20.20.2', '22.13.0', '22.23.3', '24.0.0', '24.11.1'])
      expect(satisfies(supported, range), supported).toBe(true);
  });
});
