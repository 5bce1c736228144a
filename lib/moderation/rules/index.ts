export { createRulesEngine } from './rules-engine';
