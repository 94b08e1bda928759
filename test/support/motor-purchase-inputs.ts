/**
 * What a new customer's phone types from the dial to insurechat's payment-method screen on the
 * motor-quote journey ("… Pay with: 1 My number 2 Another number 3 Card"): Motor → New cover →
 * Third Party → private use → first period (priced) → a plate of its own never registered → its
 * make, model and year as one answer → chassis and engine → an NRC of its own (the holder's phone
 * is the caller's own, not asked) → full name → email. A quotation
 * registers the car to the phone that asked, and another holder's plate is not quoted to a phone
 * (issues 23 and 25), so each phone's plate, car and NRC come from its own number: six digits
 * before its last one (`+26097SSSSSS0` gives SSSSSS). None of them is on a screen, so every phone
 * sees the same screens. Used by the reliability tests and the bench's USSD walk.
 */
export function motorPurchaseInputs(msisdn: string): string[] {
  return [...MOTOR_TO_PLATE, ...ownCar(msisdn)];
}

/**
 * The same for every phone up to the plate question: Motor → New cover → Third Party → private
 * use → first period (priced). The next answer, a plate, is looked up at the insurer.
 */
export const MOTOR_TO_PLATE: readonly string[] = ['1', '1', '1', '1', '1'];

/** A phone's own car and holder details, from the plate question to "Pay with". */
function ownCar(msisdn: string): string[] {
  const digits = msisdn.replace(/\D/g, '').slice(-7, -1);
  const letters = [...digits.slice(0, 2)].map((d) => String.fromCharCode(65 + Number(d))).join('');
  return [
    `Z${letters} ${digits.slice(2)}`,
    'Toyota Corolla 2018',
    `CH${digits}`,
    `EN${digits}`,
    `${digits}111`,
    'Jane Doe',
    'jane@example.com',
  ];
}
