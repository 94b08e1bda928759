import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepStaffFile } from '../../src/handoff/index.js';
import { FakeSlack } from '../channels/slack/fake-slack.js';
import { tinyPdf } from '../support/document-bytes.js';

/*
 * A staff file fetched from Slack for the customer: only from Slack's own host, with the bot
 * token, within the one size limit; the file store is a double that records what it was given.
 */

let slack: FakeSlack;
beforeAll(async () => {
  slack = new FakeSlack();
  await slack.start();
});
afterAll(() => slack.stop());

function filesOver(maxBytes: number, botToken = 'xoxb-files') {
  const kept: { bytes: Uint8Array; fileName: string; owner: string | undefined }[] = [];
  return {
    kept,
    files: {
      store: {
        put: async (body: unknown, options: { fileName: string; owner?: string }) => {
          kept.push({
            bytes: body as Uint8Array,
            fileName: options.fileName,
            owner: options.owner,
          });
          return { id: `file-${kept.length}` };
        },
        signedUrl: (id: string) => `https://bot.example/files/${id}?exp=9&sig=x`,
      },
      botToken,
      origins: [new URL(slack.baseUrl).origin],
      maxBytes,
    },
  };
}

describe('a staff file for the customer', () => {
  it('is fetched with the bot token, kept for the customer and sent as a named document', async () => {
    const pdf = tinyPdf();
    const url = slack.addFile('F1', pdf, 'application/pdf');
    const { files, kept } = filesOver(1_000_000);
    const outcome = await keepStaffFile(
      files,
      { id: 'F1', name: 'policy schedule.pdf', size: pdf.byteLength, url_private_download: url },
      'whatsapp:260971000001',
    );
    expect(outcome).toEqual({
      kind: 'kept',
      attachment: {
        kind: 'document',
        url: 'https://bot.example/files/file-1?exp=9&sig=x',
        label: 'handoff.staffFileLabel',
        fileName: 'policy schedule.pdf',
      },
    });
    expect(Buffer.from(kept[0]?.bytes ?? [])).toEqual(pdf);
    expect(kept[0]?.owner).toBe('whatsapp:260971000001');
  });

  it('is not fetched when Slack says it is over the limit, nor when it grows past it', async () => {
    const pdf = tinyPdf();
    const url = slack.addFile('F2', pdf, 'application/pdf');
    const { files, kept } = filesOver(pdf.byteLength - 1);
    const before = slack.callsTo('/files-pri').length;
    const said = { id: 'F2', size: pdf.byteLength, url_private_download: url };
    expect(await keepStaffFile(files, said, 'tg:1')).toEqual({ kind: 'tooLarge' });
    expect(slack.callsTo('/files-pri')).toHaveLength(before);
    const unsaid = { id: 'F2', url_private_download: url };
    expect(await keepStaffFile(files, unsaid, 'tg:1')).toEqual({ kind: 'tooLarge' });
    expect(kept).toHaveLength(0);
  });

  it('never sends the token to a host other than Slack, and keeps no sign-in page', async () => {
    const { files, kept } = filesOver(1_000_000);
    const before = slack.callsTo('/files-pri').length;
    const elsewhere = { id: 'F3', url_private_download: 'https://attacker.example/file.pdf' };
    expect(await keepStaffFile(files, elsewhere, 'tg:1')).toEqual({ kind: 'failed' });
    const wrongToken = filesOver(1_000_000, 'not-a-bot-token');
    const url = slack.addFile('F4', tinyPdf(), 'application/pdf');
    expect(
      await keepStaffFile(wrongToken.files, { id: 'F4', url_private_download: url }, 'tg:1'),
    ).toEqual({
      kind: 'failed',
    });
    expect(slack.callsTo('/files-pri')).toHaveLength(before + 1);
    expect([...kept, ...wrongToken.kept]).toHaveLength(0);
  });
});
