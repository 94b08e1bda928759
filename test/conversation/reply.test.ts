import { describe, expect, it } from 'vitest';
import { Reply } from '../../src/conversation/reply.js';

describe('Reply', () => {
  it('accepts a user choice by id', () => {
    expect(Reply.parse({ type: 'user.choice', id: '2' })).toEqual({ type: 'user.choice', id: '2' });
  });

  it('rejects an event type no flow understands', () => {
    expect(Reply.safeParse({ type: 'user.shout', text: 'hi' }).success).toBe(false);
  });
});
