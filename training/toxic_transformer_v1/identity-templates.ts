/**
 * Identity-group sentence templates, shared by the bias evaluation (`identity-templates.json`)
 * and the debiasing augmentation (`identity-augmentation.json`), which use disjoint templates.
 */
export interface IdentityGroup {
  adj: string;
  plural: string;
  person: string;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Fill `{Plural}`, `{plural}`, `{adj}` and `{person}`, and fix "a" before a vowel. */
export function fillIdentityTemplate(template: string, g: IdentityGroup): string {
  return template
    .replaceAll('{Plural}', capitalise(g.plural))
    .replaceAll('{plural}', g.plural)
    .replaceAll('{adj}', g.adj)
    .replaceAll('{person}', g.person)
    .replace(/\ba ([aeiouAEIOU])/g, 'an $1');
}
