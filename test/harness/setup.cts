/**
 * One-time, process-wide setup of what n8n-core pulls from its DI container while executing a node:
 * - `Logger` (@n8n/backend-common): replaced by the capturing logger (also given to n8n-workflow's LoggerProxy);
 * - `InstanceSettings` (n8n-core): built over a throw-away temp folder, so nothing is read from or written to
 *   ~/.n8n (the real constructor writes `<n8nFolder>/config` with an encryption key);
 * - `OutboundHttp` (@n8n/backend-network) and its SSRF dependencies: n8n's own, constructed by the container.
 */
import { InstanceSettings } from 'n8n-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { capturingLogger, installLoggerProxy } from './logs.cjs';
import { BackendLogger, Container, OutboundHttp } from './n8n-deps.cjs';

let done = false;
let tempFolder: string | undefined;

export function ensureN8nEnvironment(): void {
	if (done) return;
	done = true;

	Container.set(BackendLogger as never, capturingLogger as never);
	installLoggerProxy();

	tempFolder = mkdtempSync(path.join(tmpdir(), 'n8n-harness-'));
	const n8nFolder = path.join(tempFolder, '.n8n');
	const config = {
		n8nFolder,
		userHome: tempFolder,
		encryptionKey: 'test-harness-encryption-key',
		enforceSettingsFilePermissions: false,
	};
	const Ctor = InstanceSettings as unknown as new (
		config: unknown,
		logger: unknown,
	) => InstanceSettings;
	Container.set(InstanceSettings as never, new Ctor(config, capturingLogger) as never);

	// Construct it once now so a DI problem shows up at setup rather than in the middle of a request.
	Container.get(OutboundHttp as never);

	process.once('exit', () => {
		if (tempFolder) rmSync(tempFolder, { recursive: true, force: true });
	});
}
