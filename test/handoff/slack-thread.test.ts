import { describe, expect, it } from 'vitest';
import { customerText, staffText } from '../../src/handoff/index.js';

describe('text between a customer and staff', () => {
  it("turns a staff member's Slack markup back into plain words for the customer", () => {
    expect(staffText('Hi <@U0MARY|mary>, see <https://insurer.example/faq|our FAQ>')).toBe(
      'Hi @mary, see our FAQ (https://insurer.example/faq)',
    );
    expect(staffText('Call &lt;now&gt; &amp; quote <tel:+260971234567>')).toBe(
      'Call <now> & quote tel:+260971234567',
    );
    expect(staffText('<!here> ask <#C0DESK|desk> or <@U0BOB>')).toBe('ask #desk or @staff');
  });

  it("masks a customer's NRC and phone and keeps Slack from reading their text as markup", () => {
    expect(customerText('NRC 479974/11/1, call 0977123456 <@U0MARY> & <!channel>')).toBe(
      'NRC ••••••/••/•, call •••••••456 &lt;@U0MARY&gt; &amp; &lt;!channel&gt;',
    );
  });

  it('clips a long message for a Slack section', () => {
    const long = customerText('a'.repeat(5_000));
    expect(long).toHaveLength(2_000);
    expect(long.endsWith('…')).toBe(true);
  });
});
