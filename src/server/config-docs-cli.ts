import { writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configurationMarkdown } from './config-docs.js';

// `npm run docs:config`: writes docs/configuration.md from the environment schema.
const file = resolve(dirname(fileURLToPath(import.meta.url)), '../../docs/configuration.md');
await writeFile(file, configurationMarkdown());
process.stdout.write(`wrote ${file}\n`);
