import { describe, expect, it } from 'vitest';
import { filterPeople, matchesName } from './filter-people';

describe('People search', () => {
  it('matches the start of any word of the name, ignoring case and accents', () => {
    expect(matchesName('Joe Biden', 'jo')).toBe(true);
    expect(matchesName('Joe Biden', 'BID')).toBe(true);
    expect(matchesName('José Ramírez', 'jose ram')).toBe(true);
    expect(matchesName('Mary-Jane Watson', 'jane')).toBe(true);
  });
  it('needs every word typed, and does not match inside a word', () => {
    expect(matchesName('Joe Biden', 'joe smith')).toBe(false);
    expect(matchesName('Joe Biden', 'iden')).toBe(false);
  });
  it('keeps everyone, in order, for an empty or blank query', () => {
    const people = [{ name: 'Rose' }, { name: 'Joe' }];
    expect(filterPeople(people, '')).toEqual(people);
    expect(filterPeople(people, '  ')).toEqual(people);
    expect(filterPeople(people, 'ro')).toEqual([{ name: 'Rose' }]);
  });
});
