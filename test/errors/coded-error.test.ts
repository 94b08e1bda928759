import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { SlackChannelError } from '../../src/channels/slack/index.js';
import { SmsDeliveryError } from '../../src/channels/sms/index.js';
import { CodedError, CodedStatusError } from '../../src/errors/index.js';
import { SessionStoreError } from '../../src/session/session-store-error.js';

describe('CodedError', () => {
  it('gives each subclass its own name and instanceof, with the code and cause it was given', () => {
    const cause = new Error('down');
    const error = new SessionStoreError('SESSION_REDIS_FAILED', 'no answer', { cause });
    expect(error).toBeInstanceOf(SessionStoreError);
    expect(error).toBeInstanceOf(CodedError);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(SlackChannelError);
    expect(error.name).toBe('SessionStoreError');
    expect(error.code).toBe('SESSION_REDIS_FAILED');
    expect(error.message).toBe('no answer');
    expect(error.cause).toBe(cause);
    expect(String(error)).toBe('SessionStoreError: no answer');
  });

  it('keeps a status, and a cause only when there is one', () => {
    const answered = new SmsDeliveryError('SMS_HTTP_ERROR', 'answered 502', { status: 502 });
    expect(answered).toBeInstanceOf(CodedStatusError);
    expect(answered.name).toBe('SmsDeliveryError');
    expect(answered.status).toBe(502);
    expect('cause' in answered).toBe(false);
    const unreached = new SmsDeliveryError('SMS_NETWORK_ERROR', 'unreached', { cause: 'reset' });
    expect(unreached.status).toBeUndefined();
    expect(unreached.cause).toBe('reset');
  });
});

/** Every `.ts` file under `dir`, recursively. */
function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(dir, file));
}

/**
 * Every class in `src` and `flows` that extends {@link CodedError} (directly or through another
 * coded class), with each code its `code` property can hold, read by the type checker so that a
 * code union declared anywhere (or inherited from a parent class) is seen.
 */
function codedErrorClasses(): { name: string; file: string; codes: string[] }[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    'tsconfig.json',
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => undefined,
    },
  );
  const program = ts.createProgram({
    rootNames: [...sources('src'), ...sources('flows')],
    options: { ...parsed?.options, noEmit: true },
  });
  const checker = program.getTypeChecker();
  const ancestors = (type: ts.Type): string[] => {
    const names: string[] = [];
    let current: ts.Type | undefined = type;
    while (current) {
      names.push(current.symbol?.name ?? '');
      // A generic base (`CodedStatusError<Code>`) comes as a reference to its declared class.
      const declared: ts.Type =
        (current as ts.ObjectType).objectFlags & ts.ObjectFlags.Reference
          ? (current as ts.TypeReference).target
          : current;
      current = declared.isClassOrInterface() ? checker.getBaseTypes(declared)[0] : undefined;
    }
    return names;
  };
  return program
    .getSourceFiles()
    .filter((source) => !source.isDeclarationFile && !source.fileName.includes('node_modules'))
    .flatMap((source) =>
      source.statements.flatMap((statement) => {
        if (!ts.isClassDeclaration(statement) || !statement.name) return [];
        const type = checker.getTypeAtLocation(statement.name);
        // The bases themselves hold a type parameter, not codes.
        if (statement.typeParameters || !ancestors(type).slice(1).includes('CodedError')) return [];
        const code = checker.getPropertyOfType(type, 'code');
        const codeType = code && checker.getTypeOfSymbolAtLocation(code, statement);
        const members = codeType?.isUnion() ? codeType.types : codeType ? [codeType] : [];
        return [
          {
            name: statement.name.text,
            file: relative('.', source.fileName),
            codes: members.map((member) =>
              member.isStringLiteral()
                ? member.value
                : `not a literal: ${checker.typeToString(member)}`,
            ),
          },
        ];
      }),
    );
}

describe('error codes', () => {
  const files = [...sources('src'), ...sources('flows')].map((file) => ({
    file,
    text: readFileSync(file, 'utf8'),
  }));

  it('come from CodedError in every error class that has one', () => {
    const outside = files.flatMap(({ file, text }) =>
      [...text.matchAll(/class (\w+) extends Error \{[^}]*?readonly code\b/g)].map(
        (match) => `${file}: ${match[1]}`,
      ),
    );
    expect(outside).toEqual([]);
  });

  it('are written in one casing, UPPER_SNAKE, by every CodedError subclass (issue 39)', () => {
    const classes = codedErrorClasses();
    // Every class the text names as coded is found, the three once in another casing included.
    const named = files
      .flatMap(({ text }) =>
        [...text.matchAll(/class (\w+) extends Coded(?:Status)?Error</g)].map((match) => match[1]),
      )
      .filter((name) => name !== 'CodedStatusError');
    expect(named.filter((name) => !classes.some((found) => found.name === name))).toEqual([]);
    expect(classes.map(({ name }) => name)).toEqual(
      expect.arrayContaining([
        'TurnError',
        'PaymentGuardError',
        'SandboxHttpError',
        'ApiNotFoundError',
      ]),
    );
    expect(classes.length).toBeGreaterThan(40);
    const offending = classes.flatMap(({ name, file, codes }) =>
      codes
        .filter((code) => !/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/.test(code))
        .map((code) => `${file}: ${name} ${code}`),
    );
    expect(offending).toEqual([]);
    expect(classes.every(({ codes }) => codes.length > 0)).toBe(true);
  }, 120_000);
});
