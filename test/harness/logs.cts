/**
 * A logger that records every line, installed both where n8n-core looks for it (`Container.get(Logger)` of
 * @n8n/backend-common: `this.logger` inside every node context, OutboundHttp, ...) and in n8n-workflow's
 * `LoggerProxy` (WorkflowExecute, RoutingNode, ...).
 */
import { LoggerProxy } from 'n8n-workflow';
import type { Logger as WorkflowLogger } from 'n8n-workflow';

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

export interface CapturedLog {
	level: LogLevel;
	message: string;
	/** The metadata object as given (not copied). */
	metadata: Record<string, unknown>;
	/** `message` plus the metadata serialized (errors with message/stack/description/cause): search this for secrets. */
	text: string;
	scopes: string[];
}

const captured: CapturedLog[] = [];
let echo = process.env.HARNESS_ECHO_LOGS === '1';

function serialize(value: unknown): string {
	const seen = new WeakSet<object>();
	try {
		return (
			JSON.stringify(value, function (_key, v: unknown) {
				if (typeof v === 'bigint') return v.toString();
				if (v instanceof Error) {
					const e = v as Error & Record<string, unknown>;
					const out: Record<string, unknown> = { name: e.name, message: e.message, stack: e.stack };
					for (const k of Object.keys(e)) out[k] = e[k];
					if ('cause' in e) out.cause = e.cause;
					return out;
				}
				if (typeof v === 'object' && v !== null) {
					if (seen.has(v)) return '[Circular]';
					seen.add(v);
				}
				return v;
			}) ?? ''
		);
	} catch (error) {
		return `[unserializable: ${(error as Error).message}]`;
	}
}

export class CapturingLogger implements WorkflowLogger {
	constructor(private readonly scopes: string[] = []) {}

	private record(level: LogLevel, message: unknown, metadata: unknown = {}): void {
		const msg = typeof message === 'string' ? message : serialize(message);
		const meta = (
			typeof metadata === 'object' && metadata !== null ? metadata : { value: metadata }
		) as Record<string, unknown>;
		const entry: CapturedLog = {
			level,
			message: msg,
			metadata: meta,
			text: `${msg} ${serialize(meta)}`,
			scopes: this.scopes,
		};
		captured.push(entry);
		if (echo) process.stderr.write(`[n8n ${level}] ${entry.text}\n`);
	}

	error(message: string, metadata?: unknown): void {
		this.record('error', message, metadata);
	}
	warn(message: string, metadata?: unknown): void {
		this.record('warn', message, metadata);
	}
	info(message: string, metadata?: unknown): void {
		this.record('info', message, metadata);
	}
	debug(message: string, metadata?: unknown): void {
		this.record('debug', message, metadata);
	}
	/** @n8n/backend-common's Logger API. */
	scoped(scopes: string | string[]): CapturingLogger {
		return new CapturingLogger([...this.scopes, ...(Array.isArray(scopes) ? scopes : [scopes])]);
	}
	log(level: LogLevel, message: string, metadata?: unknown): void {
		this.record(level, message, metadata);
	}
	setLevel(): void {}
	getInternalLogger(): this {
		return this;
	}
	setInternalLogger(): void {}
}

export const capturingLogger = new CapturingLogger();

export function installLoggerProxy(): void {
	LoggerProxy.init(capturingLogger);
}

/** Every log line recorded since the last `clearCapturedLogs()` (a copy of the list). */
export function getCapturedLogs(): CapturedLog[] {
	return captured.slice();
}

export function clearCapturedLogs(): void {
	captured.length = 0;
}

/** Also print each log line to stderr (or set HARNESS_ECHO_LOGS=1). */
export function setEchoLogs(on: boolean): void {
	echo = on;
}
