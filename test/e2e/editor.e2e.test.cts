/**
 * The Keyword.com nodes in n8n's editor, in headless Chromium (Debian's, via playwright-core): sign in, open the
 * daily-ranks example, open the Keyword.com node's panel, run the step against the fake API and check the output;
 * then open the Keyword.com Trigger of the alert example and fetch a test event; then open the AI Agent example, ask a
 * question in its chat (the OpenAI Chat Model on the scripted fake model, dev/fake-model) and see the agent call the
 * Keyword.com tools and answer. The screenshots (node-panel.jpg, trigger-panel.jpg, agent.jpg) are written to
 * build/screenshots/, or with UPDATE_SCREENSHOTS=1 to docs/screenshots/ where the README shows them.
 *
 * Needs /usr/bin/chromium (scripts/install-chromium.sh) and the playwright-core devDependency.
 * Run: source scripts/env.sh && npx tsc -p tsconfig.test.json && node --test build/test/e2e/editor.e2e.test.cjs
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';

import {
	FakeApiProcess,
	RealN8n,
	buildAndPackPackage,
	keywordComCredential,
	launchChromium,
	loadExample,
	removeTarball,
	repoRoot,
} from '../../e2e/lib/index.cjs';
import {
	AGENT_EXAMPLE_QUESTION,
	exampleModelCredential,
	startExampleModel,
} from '../../e2e/lib/examples.cjs';
import type { FakeModel } from '../../e2e/lib/fake-model.cjs';

// The committed screenshots in docs/ are rewritten only on request (UPDATE_SCREENSHOTS=1), so a test run leaves the
// work tree clean; otherwise they go to the build folder.
const SCREENSHOTS =
	process.env.UPDATE_SCREENSHOTS === '1'
		? path.join(repoRoot(), 'docs', 'screenshots')
		: path.join(repoRoot(), 'build', 'screenshots');
/**
 * Screenshots are JPEG: `n8n-node build` copies every PNG and SVG of the package folder (the repository) into dist/,
 * and so into the published tarball.
 */
const jpeg = (file: string) => ({ path: file, type: 'jpeg' as const, quality: 90 });
const NODE_NAME = 'Get keyword ranks';
const TRIGGER_NAME = 'On new rank alert';

describe(
	'Keyword.com nodes in the n8n editor (headless Chromium)',
	{ timeout: 10 * 60_000 },
	() => {
		let tarball: string | undefined;
		let fake: FakeApiProcess;
		let model: FakeModel;
		let n8n: RealN8n;
		let browser: any;
		let page: any;
		let ranksId: string;
		let alertsId: string;
		let agentId: string;
		const debugDir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-editor-'));

		/** On failure: a screenshot of where the page was, to look at. */
		const debugShot = async (label: string): Promise<string> => {
			const file = path.join(debugDir, `${label}.jpg`);
			await page?.screenshot({ path: file, type: 'jpeg' }).catch(() => undefined);
			return file;
		};

		before(async () => {
			tarball = buildAndPackPackage();
			fake = await FakeApiProcess.start({ seed: 'demo' });
			model = await startExampleModel();
			n8n = await RealN8n.create({ packageTarball: tarball, name: 'editor' });
			await n8n.importCredentials([
				keywordComCredential(fake.baseUrl, fake.token),
				exampleModelCredential(model.baseUrl, model.apiKey),
			]);
			[ranksId, alertsId, agentId] = await n8n.importWorkflows([
				loadExample('daily-ranks-to-google-sheet.json'),
				loadExample('new-alert-to-slack.json'),
				loadExample('ai-agent-keyword-com-tools.json'),
			]);
			await n8n.start();
			const owner = await n8n.setupOwnerAndLogin();
			browser = await launchChromium();
			const context = await browser.newContext({
				viewport: { width: 1600, height: 960 },
				deviceScaleFactor: 1,
				locale: 'en-US',
				timezoneId: 'UTC',
			});
			const [name, value] = owner.cookie.split(/=(.*)/s);
			await context.addCookies([
				{ name, value, domain: '127.0.0.1', path: '/', httpOnly: true, sameSite: 'Lax' },
			]);
			page = await context.newPage();
			page.setDefaultTimeout(30_000);
		});

		after(async () => {
			await browser?.close().catch(() => undefined);
			await n8n?.dispose();
			await fake?.stop();
			await model?.stop();
			removeTarball(tarball);
			if (fs.existsSync(debugDir) && fs.readdirSync(debugDir).length === 0)
				fs.rmSync(debugDir, { recursive: true, force: true });
		});

		/** Opens a workflow in the editor and waits for its canvas. */
		const openWorkflow = async (id: string, nodeName: string): Promise<any> => {
			await page.goto(`${n8n.baseUrl}/workflow/${id}`, { waitUntil: 'domcontentloaded' });
			const node = page.locator(`[data-test-id="canvas-node"][data-node-name="${nodeName}"]`);
			await node.waitFor({ state: 'visible' });
			return node;
		};

		/** Double-clicks a node and waits for its panel (NDV) with its run button. */
		const openPanel = async (node: any): Promise<any> => {
			await node.dblclick();
			const ndv = page.locator('[data-test-id="ndv"]');
			await ndv.waitFor({ state: 'visible' });
			await ndv
				.locator('[data-test-id="node-execute-button"]')
				.first()
				.waitFor({ state: 'visible' });
			return ndv;
		};

		/** Closes the "Node executed successfully" toasts, so they do not cover the output in the screenshots. */
		const closeToasts = async (): Promise<void> => {
			const buttons = page.locator('.el-notification .el-notification__closeBtn');
			for (let i = (await buttons.count()) - 1; i >= 0; i--)
				await buttons
					.nth(i)
					.click()
					.catch(() => undefined);
			await page
				.locator('.el-notification')
				.first()
				.waitFor({ state: 'hidden', timeout: 5_000 })
				.catch(() => undefined);
			await page.mouse.move(700, 5); // no hover highlight in the screenshot
		};

		/** The values of the panel's text inputs (parameters show their values in inputs, not as text). */
		const inputValues = async (ndv: any): Promise<string[]> =>
			(await ndv
				.locator('input')
				.evaluateAll((inputs: any[]) => inputs.map((input) => String(input.value)))) as string[];

		/** The panel of a node added today: its Output parameter at Simplified, and no Simplify toggle. */
		const assertOutputChoice = async (ndv: any, values: string[]): Promise<void> => {
			const output = ndv.locator('[data-test-id="parameter-input-output"]');
			await output.waitFor({ state: 'visible' });
			const shown = await inputValues(output);
			assert.ok(
				shown.includes('Simplified'),
				`the Output parameter shows Simplified (its inputs: ${shown.join(' | ')}; the panel's: ${values.join(' | ')})`,
			);
			assert.equal(
				await ndv.locator('[data-test-id="parameter-input-simplify"]').count(),
				0,
				'no Simplify toggle',
			);
		};

		test('signs in, opens the daily-ranks example, runs the Keyword.com step and shows its items', async () => {
			try {
				const node = await openWorkflow(ranksId, NODE_NAME);
				const ndv = await openPanel(node);
				const values = await inputValues(ndv);
				assert.ok(
					values.includes('Acme Shoes'),
					`the Project parameter shows Acme Shoes (inputs: ${values.join(' | ')})`,
				);
				assert.ok(values.includes('Keyword.com account'), 'the credential is set');
				await assertOutputChoice(ndv, values);
				await ndv.locator('[data-test-id="node-execute-button"]').first().click();
				const output = ndv.locator('[data-test-id="output-panel"]');
				await output
					.getByText('running shoes', { exact: true })
					.first()
					.waitFor({ state: 'visible', timeout: 60_000 });
				const text = String(await output.innerText());
				assert.match(text, /12 items/, 'the output panel reports 12 items');
				assert.ok(text.includes('trail running shoes'), 'the keywords of the project are listed');
				assert.ok(
					/\bbest_rank\b/.test(text) && !/\bgrank\b/.test(text),
					'the output table has the simplified columns (best_rank), not the API keys (grank)',
				);
				assert.ok(!text.includes(fake.token), 'no token on screen');
				const requests = await fake.requests();
				assert.ok(
					requests.some(
						(r) => r.method === 'GET' && r.path === '/api/v2/groups/Acme Shoes/keywords/',
					),
					'the step called the fake API',
				);
				await closeToasts();
				await page.waitForTimeout(500); // let the table settle
				fs.mkdirSync(SCREENSHOTS, { recursive: true });
				await page.screenshot(jpeg(path.join(SCREENSHOTS, 'node-panel.jpg')));
			} catch (error) {
				throw new Error(
					`${(error as Error).message}\n(screenshot: ${await debugShot('node-panel-failure')})`,
				);
			}
		});

		test('opens the Keyword.com Trigger of the alert example and fetches a test event', async () => {
			try {
				await page.keyboard.press('Escape');
				const trigger = await openWorkflow(alertsId, TRIGGER_NAME);
				const ndv = await openPanel(trigger);
				const values = await inputValues(ndv);
				assert.ok(
					values.includes('New Alert'),
					`the Event parameter shows New Alert (inputs: ${values.join(' | ')})`,
				);
				await assertOutputChoice(ndv, values);
				await ndv.locator('[data-test-id="node-execute-button"]').first().click();
				const output = ndv.locator('[data-test-id="output-panel"]');
				await output
					.getByText(/\d+ items?/)
					.first()
					.waitFor({ state: 'visible', timeout: 60_000 });
				// The count shows before the table: wait for the table's keyword column.
				await output
					.getByText('keyword', { exact: true })
					.first()
					.waitFor({ state: 'visible', timeout: 30_000 });
				const text = String(await output.innerText());
				assert.match(text, /5 items/, 'a test event shows the latest five alerts');
				// The first columns (later ones may lie outside the panel, where the table does not render them).
				assert.ok(
					/\bkeyword\b/.test(text) && !/\bkw\b/.test(text) && !/\bcategory\b/.test(text),
					'simplified alert items (keyword, project), not the API keys (kw, category)',
				);
				assert.ok(!text.includes(fake.token), 'no token on screen');
				await closeToasts();
				await page.waitForTimeout(500);
				fs.mkdirSync(SCREENSHOTS, { recursive: true });
				await page.screenshot(jpeg(path.join(SCREENSHOTS, 'trigger-panel.jpg')));
			} catch (error) {
				throw new Error(
					`${(error as Error).message}\n(screenshot: ${await debugShot('trigger-panel-failure')})`,
				);
			}
		});

		test('opens the AI Agent example, asks in its chat, and the agent calls the Keyword.com tools and answers', async () => {
			try {
				await page.keyboard.press('Escape');
				// Taller: the canvas (sub-nodes included) above the chat and logs panel.
				await page.setViewportSize({ width: 1600, height: 1200 });
				await openWorkflow(agentId, 'AI Agent');
				for (const name of [
					'OpenAI Chat Model',
					'Simple Memory',
					'Get many projects',
					'Get many keywords',
					'Get many alerts',
				]) {
					await page
						.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`)
						.waitFor({ state: 'visible' });
				}
				model.clearRequests();
				await page.locator('[data-test-id="workflow-chat-button"]').click();
				const input = page
					.locator('[data-test-id="chat-input"] textarea, textarea[data-test-id="chat-input"]')
					.first();
				await input.waitFor({ state: 'visible' });
				await input.fill(AGENT_EXAMPLE_QUESTION);
				await input.press('Enter');
				const answer = page
					.getByText(/^You track 2 projects: Acme Shoes and Café Zürich\./)
					.first();
				await answer.waitFor({ state: 'visible', timeout: 90_000 });
				const text = String(await answer.innerText());
				assert.match(
					text,
					/Acme Shoes has 12 keywords; the best placed: '[^']+' \(rank \d+\)/,
					text,
				);
				assert.deepEqual(model.errors(), [], 'the fake model answered from its script');
				const chats = model.chatRequests();
				assert.deepEqual(
					chats.map((c) => c.step),
					[0, 1, 2],
					'projects, keywords, answer',
				);
				assert.deepEqual(
					chats[2].toolResults.map((r) => r.name),
					['Get_many_projects', 'Get_many_keywords'],
				);
				const requests = await fake.requests();
				assert.ok(
					requests.some((r) => r.path === '/api/v2/groups/active'),
					'the projects tool called the fake API',
				);
				assert.ok(
					!String(await page.locator('body').innerText()).includes(fake.token),
					'no token on screen',
				);
				await closeToasts();
				await page.locator('[data-test-id="zoom-to-fit"]').click();
				await page.waitForTimeout(800); // the fit is animated
				// Scroll the canvas up a little, so the "Hide chat" button is clear of the sub-nodes' names.
				await page.mouse.move(800, 300);
				await page.mouse.wheel(0, 60);
				await page.mouse.move(700, 5);
				await page.waitForTimeout(500);
				fs.mkdirSync(SCREENSHOTS, { recursive: true });
				await page.screenshot(jpeg(path.join(SCREENSHOTS, 'agent.jpg')));
			} catch (error) {
				throw new Error(
					`${(error as Error).message}\n(screenshot: ${await debugShot('agent-failure')})`,
				);
			}
		});
	},
);
