// The layering of the repository, checked by dependency-cruiser (`npm run lint:deps`, part of `npm test`).
// Imports point down: the nodes never reach into the tooling around them, the trigger stands apart from the action
// node, its three events stand apart from each other, what the events share (`polling/`, over the filter registry `filters/`) knows none of them, and what
// reads and writes the stored state as a whole (`state/`) is above them. No import circle anywhere, type-only ones
// included.
const TRIGGER = '^nodes/KeywordComTrigger/';
const EVENTS = `${TRIGGER}(newAlert|keywordUpdated|aiVisibilityUpdated)/`;

module.exports = {
	forbidden: [
		{
			name: 'no-circular',
			comment: 'An import circle: one of the two files belongs below the other.',
			severity: 'error',
			from: {},
			to: { circular: true },
		},
		{
			name: 'nodes-not-tooling',
			comment:
				'The published package never imports the tests, the fake, the benchmarks or the real-n8n drivers.',
			severity: 'error',
			from: { path: '^(nodes|credentials)/' },
			to: { path: '^(test|dev|e2e|bench|scripts)/' },
		},
		{
			name: 'trigger-not-action',
			comment: 'The trigger and the action node share only nodes/shared/.',
			severity: 'error',
			from: { path: TRIGGER },
			to: { path: '^nodes/KeywordCom/' },
		},
		{
			name: 'action-not-trigger',
			severity: 'error',
			from: { path: '^nodes/KeywordCom/' },
			to: { path: TRIGGER },
		},
		{
			name: 'events-apart',
			comment:
				"An event never imports another: what two events use goes down into the trigger's polling/.",
			severity: 'error',
			from: { path: EVENTS },
			to: { path: EVENTS, pathNot: '^nodes/KeywordComTrigger/$1/' },
		},
		{
			name: 'trigger-polling-below',
			comment:
				"The trigger's polling/ knows neither the events, nor state/, nor the node file (only filters/, below it).",
			severity: 'error',
			from: { path: `${TRIGGER}polling/` },
			to: { path: `${TRIGGER}`, pathNot: `${TRIGGER}(polling|filters)/` },
		},
		{
			name: 'trigger-filters-below',
			comment:
				"The trigger's filters/ (the filter registry) is its lowest floor: it knows nothing else of the trigger.",
			severity: 'error',
			from: { path: `${TRIGGER}filters/` },
			to: { path: `${TRIGGER}`, pathNot: `${TRIGGER}filters/` },
		},
		{
			name: 'events-below-state',
			comment: 'The events never import the stored state nor the node file: those sit above them.',
			severity: 'error',
			from: { path: EVENTS },
			to: { path: `${TRIGGER}(state/|[^/]+$)` },
		},
		{
			name: 'nodes-shared-below',
			comment: 'nodes/shared/ serves both nodes and imports neither.',
			severity: 'error',
			from: { path: '^nodes/shared/' },
			to: { path: '^nodes/(KeywordCom|KeywordComTrigger)/' },
		},
		{
			name: 'dev-not-e2e',
			comment:
				'e2e/ (the real n8n drivers and the demo) uses dev/ (the fakes); never the other way round.',
			severity: 'error',
			from: { path: '^dev/' },
			to: { path: '^e2e/' },
		},
		{
			name: 'tooling-not-tests',
			comment:
				"dev/, e2e/, bench/ and scripts/ never import the tests; test/harness/ (n8n's engine as the tests run it) is a tool the simulation and the benchmarks run too.",
			severity: 'error',
			from: { path: '^(dev|e2e|bench|scripts)/' },
			to: { path: '^test/', pathNot: '^test/harness/' },
		},
	],
	options: {
		tsConfig: { fileName: 'tsconfig.test.json' },
		// Type-only imports count: a circle of types is a circle all the same.
		tsPreCompilationDeps: true,
		doNotFollow: { path: 'node_modules' },
		exclude: { path: '^(build|dist|node_modules)/' },
	},
};
