/**
 * Screens of the motor-quote journey up to the payment confirmation, used by the baseline and
 * ussd-menu-builder servers when insurechat's own screens have not been captured (the bench
 * replaces them with the screens insurechat actually showed, so all three serve the same text).
 */
export const PLACEHOLDER_MOTOR_SCREENS: readonly string[] = [
  'Welcome to InsureChat\n1 Buy motor cover\n2 Buy travel cover\n3 My policies\n4 Make a claim\n5 Check cover',
  'Motor cover: pick a product\n1 Private Third Party\n2 Private TPFT\n3 Private Comprehensive\n0 Back',
  'Enter the vehicle registration number, e.g. ABC 1234\n0 Back',
  'Vehicle ABC 1234: Toyota Corolla 2015.\n1 Use this vehicle\n2 Another vehicle\n0 Back',
  'Pick a period:\n1 3 months ZMW 412.50 (levy 19.64)\n2 6 months ZMW 790.00 (levy 37.62)\n3 12 months ZMW 1,480.00 (levy 70.48)\n0 Back',
  'Your NRC number (9 digits, e.g. 479974111)\n0 Back',
  'Your first name\n0 Back',
  'Your last name\n0 Back',
  'Quote Q-10482 for ABC 1234: ZMW 412.50 for 3 months incl. levy ZMW 19.64.\n1 Pay by mobile money\n2 Card payment link\n0 Back',
  'Pay ZMW 412.50 from 0971234560?\n1 Yes, pay now\n2 Another number\n0 Back',
];
