/**
 * The console's Policy view without React (docs/decisions/172): the measured policy and its
 * versions, the category being adjusted with its draft threshold, what that draft would change
 * among the decided items (asked of the server, a stale answer dropped), saving the draft as a new
 * version and reverting one. The hook (app/console/use-policy.ts) adapts it to React; unit tests
 * drive it with a fake client.
 */
import type { Impact, Policy, PolicyCategory, PolicyVersion } from '@/lib/contracts/policy';

export interface PolicyClient {
  policy(): Promise<Policy>;
  versions(): Promise<{ versions: PolicyVersion[] }>;
  impact(category: PolicyCategory, threshold: number, signal: AbortSignal): Promise<Impact>;
  change(body: {
    category: PolicyCategory;
    threshold: number | null;
    reason: string;
    expected_version: number;
    moderator: string;
  }): Promise<PolicyVersion>;
  revert(version: number, body: { reason: string; expected_version: number; moderator: string }): Promise<PolicyVersion>;
}

export interface PolicyState {
  policy?: Policy;
  versions: PolicyVersion[];
  loading: boolean;
  error?: unknown;
  /** The category being adjusted, and the threshold proposed for it. */
  selected?: PolicyCategory;
  draft?: number;
  impact?: Impact;
  impactError?: unknown;
  saving: boolean;
  saveError?: unknown;
  /** The last version saved here (a plain sentence for the live region). */
  saved?: PolicyVersion;
}

/**
 * A category as the rest of the console names it: the toxicity model's `overall` head is the
 * "Toxicity" score of every verdict, so the Policy view says Toxicity too.
 */
export const categoryLabel = (category: string): string => {
  const words = category === 'overall' ? 'toxicity' : category.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** Thresholds are proposed on a 0.01 grid, within the API's bounds. */
export const clampThreshold = (x: number) => Math.min(0.99, Math.max(0.01, Math.round(x * 100) / 100));

/** "0.62 → 0.70", with "shipped" for a null override. */
export const describeChange = (v: Pick<PolicyVersion, 'old_threshold' | 'new_threshold'>) =>
  `${v.old_threshold ?? 'shipped'} → ${v.new_threshold ?? 'shipped'}`;

export class PolicyController {
  private impactSeq = 0;
  private impactAbort?: AbortController;
  state: PolicyState = { versions: [], loading: false, saving: false };

  constructor(
    private readonly client: PolicyClient,
    private readonly onChange: (state: PolicyState) => void,
  ) {}

  private set(patch: Partial<PolicyState>): void {
    this.state = { ...this.state, ...patch };
    this.onChange(this.state);
  }

  async load(): Promise<void> {
    this.set({ loading: true, error: undefined });
    try {
      const [policy, { versions }] = await Promise.all([this.client.policy(), this.client.versions()]);
      this.set({ policy, versions, loading: false });
    } catch (err) {
      this.set({ loading: false, error: err });
    }
  }

  /** Start adjusting `category`, from its threshold in force. */
  select(category: PolicyCategory | undefined): void {
    this.impactAbort?.abort();
    this.impactSeq++;
    const current = this.state.policy?.categories.find((c) => c.category === category);
    this.set({
      selected: category,
      draft: current?.threshold,
      impact: undefined,
      impactError: undefined,
      saveError: undefined,
      saved: undefined,
    });
  }

  /** A new draft threshold: what it would change is asked at once (the view debounces typing). */
  async propose(threshold: number): Promise<void> {
    const category = this.state.selected;
    if (!category || !Number.isFinite(threshold)) return;
    const draft = clampThreshold(threshold);
    this.impactAbort?.abort();
    const abort = new AbortController();
    this.impactAbort = abort;
    const seq = ++this.impactSeq;
    this.set({ draft, impactError: undefined, saveError: undefined });
    try {
      const impact = await this.client.impact(category, draft, abort.signal);
      if (seq === this.impactSeq) this.set({ impact });
    } catch (err) {
      if (seq !== this.impactSeq || (err as Error).name === 'AbortError') return;
      this.set({ impactError: err, impact: undefined });
    }
  }

  /** Whether the draft differs from the threshold in force (nothing to save otherwise). */
  get canSave(): boolean {
    const current = this.state.policy?.categories.find((c) => c.category === this.state.selected);
    return !!current && this.state.draft !== undefined && Math.abs(this.state.draft - current.threshold) > 1e-9 && !this.state.saving;
  }

  /** Saves the draft as a new version (or the shipped threshold again with `toShipped`), then reloads. */
  async save(reason: string, moderator: string, toShipped = false): Promise<boolean> {
    const { selected, draft, policy } = this.state;
    if (!selected || !policy || (draft === undefined && !toShipped)) return false;
    return this.write(() =>
      this.client.change({ category: selected, threshold: toShipped ? null : draft!, reason, expected_version: policy.version, moderator }),
    );
  }

  revert(version: number, reason: string, moderator: string): Promise<boolean> {
    const policy = this.state.policy;
    if (!policy) return Promise.resolve(false);
    return this.write(() => this.client.revert(version, { reason, expected_version: policy.version, moderator }));
  }

  private async write(send: () => Promise<PolicyVersion>): Promise<boolean> {
    this.set({ saving: true, saveError: undefined, saved: undefined });
    try {
      const saved = await send();
      this.set({ saving: false, saved, selected: undefined, draft: undefined, impact: undefined });
      await this.load();
      return true;
    } catch (err) {
      this.set({ saving: false, saveError: err });
      // A POLICY_CONFLICT means another change landed: show the policy as it now is.
      if ((err as { code?: string }).code === 'POLICY_CONFLICT') await this.load();
      return false;
    }
  }

  dispose(): void {
    this.impactSeq++;
    this.impactAbort?.abort();
  }
}
