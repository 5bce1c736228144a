// Server entry point. A browser Worker should import './sexism-model' and './sexism-artifact'
// directly: './load-sexism-model' reads the file system.
export { createSexismModel, severityFor, sexismModelInput, type LassoSexismModel, type SeverityBands } from './sexism-model';
export { parseSexismArtifact, sexismArtifactSchema, type SexismArtifact } from './sexism-artifact';
export { loadSexismModel } from './load-sexism-model';
