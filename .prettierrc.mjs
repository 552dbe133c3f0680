// One formatting for the repository: the package's own (packages/n8n-nodes-keyword-com/.prettierrc.mjs).
export { default } from './packages/n8n-nodes-keyword-com/.prettierrc.mjs';
