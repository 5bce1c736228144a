/** The parity fixture train.ts writes and parity.test.ts checks: the served artifact must score as training did. */
export const PARITY_FILE = 'parity-fixture.json';

export interface ParityFixture {
  about: string;
  /** Largest allowed |P_served - P_training|. */
  tolerance: number;
  /** `input` is the model input string (preprocess(text).clean, lowercased); `p` is P(sexist) at training time. */
  cases: { input: string; p: number }[];
}
