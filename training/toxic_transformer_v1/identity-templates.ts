/**
 * Identity-group sentence templates, shared by the bias evaluation (`identity-templates.json`)
 * and the debiasing augmentation (`identity-augmentation.json`), which use disjoint templates.
 */
export interface IdentityGroup {
  adj: string;
  plural: string;
  person: string;
  /** The group word used as a noun for one person ("a gay", "a Black"), where speakers use one. */
  noun?: string;
  /** The group word used as a plural noun ("gays", "the elderly"), where speakers use one. */
  nouns?: string;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Whether a group has every noun form a template names ({noun}, {Noun}, {nouns}, {Nouns}). */
export function hasNounForms(template: string, g: IdentityGroup): boolean {
  return (!/\{[Nn]oun\}/.test(template) || g.noun !== undefined) && (!/\{[Nn]ouns\}/.test(template) || g.nouns !== undefined);
}

/** Fill `{Plural}`, `{plural}`, `{adj}`, `{person}` and the noun forms, and fix "a" before a vowel. */
export function fillIdentityTemplate(template: string, g: IdentityGroup): string {
  return template
    .replaceAll('{Nouns}', capitalise(g.nouns ?? ''))
    .replaceAll('{nouns}', g.nouns ?? '')
    .replaceAll('{Noun}', capitalise(g.noun ?? ''))
    .replaceAll('{noun}', g.noun ?? '')
    .replaceAll('{Plural}', capitalise(g.plural))
    .replaceAll('{plural}', g.plural)
    .replaceAll('{adj}', g.adj)
    .replaceAll('{person}', g.person)
    .replace(/\ba ([aeiouAEIOU])/g, 'an $1');
}
